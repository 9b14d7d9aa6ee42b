import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { baseUrlOf } from '../../http/base-url.js';
import { notFound } from '../../http/errors.js';
import { DeploymentParams } from '../data-api/schemas.js';
import { deploymentUrl } from '../deployments/service.js';

const Document = Type.Object({}, { additionalProperties: true, description: 'OpenAPI 3.1.0 document' });

export const specRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/api/v1/spec', {
    config: { auth: 'public' },
    schema: {
      operationId: 'getOpenApiSpec',
      tags: ['OpenAPI Spec'],
      summary: 'Get the OpenAPI document of this API',
      description: 'The OpenAPI 3.1.0 document generated from the route schemas of this server.',
      response: { 200: Document },
    },
    handler: async () => app.swagger(),
  });

  // A deployment's URL serves the spec as Cube Cloud's deployments do: a client pointed at the
  // deployment finds the document there, its `servers` naming that URL (path- or host-based).
  app.get('/d/:deploymentId/api/v1/spec', {
    config: { auth: 'public', needsAccount: true },
    schema: {
      operationId: 'getDeploymentOpenApiSpec',
      tags: ['OpenAPI Spec'],
      summary: "Get the OpenAPI document at a deployment's URL",
      description: 'The same document as /api/v1/spec, with `servers` set to the deployment URL. No credential needed.',
      params: DeploymentParams,
      response: { 200: Document },
    },
    handler: async (request) => {
      const { deploymentId } = request.params;
      const row = await app.services.deployments.find(request.account.id, deploymentId);
      if (!row) throw notFound(`Deployment ${deploymentId} not found`);
      const url = deploymentUrl(app.config, baseUrlOf(request), row);
      return { ...app.swagger(), servers: [{ url, description: `Deployment ${deploymentId}` }] };
    },
  });
};
