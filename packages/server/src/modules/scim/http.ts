import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { baseUrlOf } from '../../http/base-url.js';
import { SCIM_ONLY } from '../../http/principal.js';
import { requires } from '../../http/requirement.js';
import { SCIM_MEDIA_TYPE } from './errors.js';
import type { ScimResource } from './mappers.js';
import type { ScimContext } from './user-service.js';

export const SCIM_PREFIX = '/api/scim/v2';
export const tags = ['SCIM'];

/** Every SCIM route takes only SCIM tokens and answers errors in the RFC 7644 §3.12 body. */
export const scimRoute = { auth: requires('ScimProvision', { kinds: SCIM_ONLY, resource: 'account' }), surface: 'scim' as const };

export const scimErrorRef = (description: string) => Type.Ref('ScimError', { description });
export const NotModified = Type.Null({ description: 'Not modified: If-None-Match names the current version' });

export function contextOf(request: FastifyRequest): ScimContext {
  const actor = request.principal?.kind === 'scimToken' ? `SCIM token ${request.principal.credentialId}` : 'SCIM';
  return { accountId: request.account.id, base: `${baseUrlOf(request)}${SCIM_PREFIX}`, actor };
}

/** A single resource: its version also goes in the ETag header (RFC 7644 §3.14). */
export function sendResource(reply: FastifyReply, resource: ScimResource, status = 200) {
  const meta = resource.meta as { version?: string; location?: string } | undefined;
  if (meta?.version) reply.header('etag', meta.version);
  if (status === 201 && meta?.location) reply.header('location', meta.location);
  return reply.code(status).type(SCIM_MEDIA_TYPE).send(resource);
}
