import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { userPrincipalOf } from '../../http/auth.js';
import { baseUrlOf } from '../../http/base-url.js';
import { deploymentField, requires } from '../../http/requirement.js';
import { MetadataRequest, MetadataResponse } from './schemas.js';

export const metadataRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const metadata = app.services.metadata;

  app.post('/api/v1/meta', {
    config: { auth: requires('SchemaRead', { resource: deploymentField(), doing: 'read the data model' }) },
    schema: {
      operationId: 'getMetadata',
      tags: ['Metadata'],
      summary: 'Get metadata',
      description:
        "Cubes, views and members of the deployment's current build that the caller's access policies let them see, narrowed to the selectors. An unknown (or hidden) selector is 400 naming it.",
      body: Type.Ref(MetadataRequest),
      response: { 200: Type.Ref(MetadataResponse) },
    },
    handler: async (request) => metadata.metadata(userPrincipalOf(request), request.body, baseUrlOf(request)),
  });
};
