import type { FastifyPluginAsync } from 'fastify';
import { unauthenticated } from '../../http/errors.js';
import { ACCESS_TOKEN_PREFIX, SCIM_TOKEN_PREFIX } from '../../http/credential-header.js';
import { scimDiscoveryRoutes } from './discovery-routes.js';
import { SCIM_MEDIA_TYPE } from './errors.js';
import { scimGroupRoutes } from './group-routes.js';
import { scimUserRoutes } from './user-routes.js';

/** SCIM clients send either (RFC 7644 §3.1 names the first; many send the second). */
const REQUEST_MEDIA_TYPES = [SCIM_MEDIA_TYPE, 'application/json'];

/** Every SCIM answer is `application/scim+json` (RFC 7644 §3.1), errors included. */
export const scimRoutes: FastifyPluginAsync = async (app) => {
  app.addHook('onRoute', (route) => {
    const schema = route.schema as { body?: unknown; consumes?: string[] } | undefined;
    if (schema?.body !== undefined) schema.consumes = REQUEST_MEDIA_TYPES;
  });
  app.addHook('onRequest', async (request) => checkScimAuthorization(request.headers.authorization));
  app.addHook('onSend', async (_request, reply, payload) => {
    // A 304 has no body, so nothing for a Content-Type to describe (RFC 9110 §15.4.5).
    if (reply.statusCode === 304) {
      reply.removeHeader('content-type');
      return '';
    }
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && type.startsWith('application/json')) {
      reply.header('content-type', `${SCIM_MEDIA_TYPE}; charset=utf-8`);
    }
    return payload;
  });
  await app.register(scimUserRoutes);
  await app.register(scimGroupRoutes);
  await app.register(scimDiscoveryRoutes);
};

const USAGE = 'SCIM requests carry the account\'s SCIM token as "Authorization: Bearer scim_…"';

/**
 * A missing, empty or malformed bearer is answered in SCIM's words, before the generic credential
 * check would read a lone word as a data API token or an unknown bearer as an access token.
 * Credentials of another kind that are well formed (an API key, an access token) are left to that
 * check, which says they are not accepted here.
 */
export function checkScimAuthorization(header: string | undefined): void {
  if (header === undefined || header.trim() === '') throw unauthenticated(`Missing Authorization header: ${USAGE}`);
  const bearer = /^\s*bearer(?:\s+(.*?))?\s*$/i.exec(header);
  if (!bearer) {
    if (/^\s*api-key\s/i.test(header)) return;
    throw unauthenticated(`Malformed Authorization header: ${USAGE}`);
  }
  const token = bearer[1] ?? '';
  if (token === '') throw unauthenticated(`Malformed Authorization header: the bearer token is empty; ${USAGE}`);
  if (token.startsWith(ACCESS_TOKEN_PREFIX) && !/\s/.test(token)) return;
  if (!/^scim_[A-Za-z0-9]{20,128}$/.test(token)) {
    throw unauthenticated(
      `Malformed SCIM token: a SCIM token is "${SCIM_TOKEN_PREFIX}" followed by 20 to 128 letters and digits; ${USAGE}`,
    );
  }
}
