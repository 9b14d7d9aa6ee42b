import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiError } from '../../http/errors.js';

const Status = Type.Object({ status: Type.String() }, { $id: 'HealthStatus' });

export const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/healthz', {
    config: { auth: 'public' },
    schema: { operationId: 'getHealth', tags: ['Health'], summary: 'Liveness: the process answers', response: { 200: Type.Ref(Status) } },
    handler: async () => ({ status: 'ok' }),
  });

  app.get('/readyz', {
    config: { auth: 'public' },
    schema: {
      operationId: 'getReadiness',
      tags: ['Health'],
      summary: 'Readiness: the metadata store answers',
      response: { 200: Type.Ref(Status), 503: Type.Ref(Type.Object({}, { $id: 'Error' })) },
    },
    handler: async () => {
      try {
        await app.store.ping();
      } catch {
        throw new ApiError('unavailable', 'The metadata store is not reachable');
      }
      return { status: 'ready' };
    },
  });
};

export const healthSchemas = [Status];
