import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError, forbidden, unauthenticated } from './errors.js';
import { parseAuthorization, kindName } from './credential-header.js';
import { credentialLabel, type CredentialKind, type Principal, type RouteAuth } from './principal.js';
import type { AccountRow } from '../store/schema.js';

/** Verifies a secret of one credential kind for an account; null when no such live credential. */
export type CredentialVerifier = (account: AccountRow, secret: string) => Promise<Principal>;

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteAuth;
  }
  interface FastifyRequest {
    principal: Principal | null;
  }
  interface FastifyInstance {
    credentialVerifiers: Partial<Record<CredentialKind, CredentialVerifier>>;
  }
}

/**
 * Authenticates every route from what it declares in `config.auth`: which credential kinds it
 * takes and which role it needs. A route that declares nothing is refused at start-up, so no
 * operation is ever open by accident.
 */
export const authPlugin = fp(async (app: FastifyInstance) => {
  app.decorate('credentialVerifiers', {});
  app.decorateRequest('principal', null);

  app.addHook('onRoute', (route) => {
    if (route.config?.auth === undefined && !route.url.startsWith('/documentation')) {
      throw new Error(`Route ${route.method} ${route.url} does not declare config.auth`);
    }
  });

  app.addHook('preHandler', async (request) => {
    const auth = request.routeOptions.config.auth;
    if (auth === undefined || auth === 'public') return;
    request.principal = await authenticate(app, request, auth.kinds);
    if (auth.role === 'admin' && request.principal.role !== 'admin') {
      throw forbidden('This operation requires the admin role');
    }
  });
});

async function authenticate(
  app: FastifyInstance,
  request: FastifyRequest,
  kinds: readonly CredentialKind[],
): Promise<Principal> {
  const presented = parseAuthorization(request.headers.authorization);
  if (!kinds.includes(presented.kind)) {
    const wanted = kinds.map((k) => credentialLabel[k]).join(' or ');
    throw unauthenticated(`A ${kindName[presented.kind]} is not accepted here: this operation requires ${wanted}`);
  }
  const verify = app.credentialVerifiers[presented.kind];
  if (!verify) throw new ApiError('internal_error', `No verifier for ${kindName[presented.kind]}s`);
  return verify(request.account, presented.secret);
}

/** The principal of an authenticated route; routes declared `public` never call this. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw unauthenticated('Authentication required');
  return request.principal;
}

/** Section 5 rule 1: a key scoped to deployments may act only on those. */
export function assertDeploymentInScope(principal: Principal, deploymentId: number): void {
  if (principal.deploymentIds !== null && !principal.deploymentIds.includes(deploymentId)) {
    throw forbidden(`This API key is not allowed to access deployment ${deploymentId}`);
  }
}
