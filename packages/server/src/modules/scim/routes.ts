import type { FastifyPluginAsync } from 'fastify';
import { scimDiscoveryRoutes } from './discovery-routes.js';
import { SCIM_MEDIA_TYPE } from './errors.js';
import { scimGroupRoutes } from './group-routes.js';
import { scimUserRoutes } from './user-routes.js';

/** Every SCIM answer is `application/scim+json` (RFC 7644 §3.1), errors included. */
export const scimRoutes: FastifyPluginAsync = async (app) => {
  app.addHook('onSend', async (_request, reply, payload) => {
    // The serializer turns the documented empty 304 into "null"; a 304 has no body.
    if (reply.statusCode === 304) return '';
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
