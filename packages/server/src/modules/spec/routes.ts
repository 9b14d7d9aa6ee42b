import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

export const specRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/api/v1/spec', {
    config: { auth: 'public' },
    schema: {
      operationId: 'getOpenApiSpec',
      tags: ['OpenAPI Spec'],
      summary: 'Get the OpenAPI document of this API',
      description: 'The OpenAPI 3.1.0 document generated from the route schemas of this server.',
      response: { 200: Type.Object({}, { additionalProperties: true, description: 'OpenAPI 3.1.0 document' }) },
    },
    handler: async () => app.swagger(),
  });
};
