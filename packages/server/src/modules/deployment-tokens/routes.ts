import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { deploymentParam, requires } from '../../http/requirement.js';
import { DeploymentTokenInput, DeploymentTokenResponse, TokenParams } from './schemas.js';

export const deploymentTokenRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // A token reads the deployment's data, so minting one is a change to who may read it.
  app.post('/api/v1/deployments/:deploymentId/token', {
    config: { auth: requires('DeploymentUpdate', { resource: deploymentParam(), doing: 'mint data API tokens' }) },
    schema: {
      operationId: 'deploymentToken',
      tags: ['Deployments'],
      summary: 'Mint a data API token',
      description: 'A JWT for the data API of the deployment, with an optional security context and lifetime.',
      params: TokenParams,
      body: Type.Ref(DeploymentTokenInput),
      response: { 200: Type.Ref(DeploymentTokenResponse) },
    },
    // The reference's operation takes no body: a call without one asks for the defaults.
    preValidation: emptyBodyIsDefaults,
    handler: async (request) =>
      app.services.deploymentTokens.deploymentToken(request.account.id, request.params.deploymentId, request.body),
  });
};

/** A POST without a body (as Cube's clients send) means every default. */
export async function emptyBodyIsDefaults(request: FastifyRequest): Promise<void> {
  if (request.body === undefined || request.body === null) request.body = {};
}
