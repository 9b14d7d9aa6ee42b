import type { FastifyRequest } from 'fastify';
import { principalOf } from '../../http/auth.js';
import { routeConfig } from '../../http/route-config.js';
import { API_RESPONSE, type AuthenticatedContext } from '../../pipeline/context.js';
import type { DataTarget } from './service.js';

/** The pipeline's context of a data API request, as its hooks decided it: what the service is given instead of the request. */
export function contextOf(request: FastifyRequest): AuthenticatedContext {
  return {
    requestId: request.id,
    tenant: request.account,
    principal: principalOf(request),
    policy: routeConfig(request).responsePolicy ?? API_RESPONSE,
  };
}

/** The deployment and branch a data API URL names (`/d/{id}` or `/d/{id}/dev-mode/{branch}`). */
export function targetOf(request: FastifyRequest): DataTarget {
  const { deploymentId, branch } = request.params as { deploymentId: number; branch?: string };
  return { deploymentId, branch };
}
