import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { principalOf } from '../../http/auth.js';
import { deploymentParam, requires } from '../../http/requirement.js';
import { DeploymentTokenInput, DeploymentTokenResponse, TokenParams } from './schemas.js';

export const deploymentTokenRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // A production token reads the deployment's data, so minting one is a change to who may read it;
  // one for the caller's own dev-mode branch reads only what the caller may already rewrite.
  app.post('/api/v1/deployments/:deploymentId/token', {
    config: {
      auth: requires('SchemaUpdateDevBranches', {
        resource: deploymentParam(),
        doing: 'mint data API tokens for its dev-mode branch',
        stricterWhen: { bodyOmits: ['branch'], permission: 'DeploymentUpdate', doing: 'mint data API tokens' },
      }),
    },
    schema: {
      operationId: 'deploymentToken',
      tags: ['Deployments'],
      summary: 'Mint a data API token',
      description:
        "A JWT for the data API of the deployment, with an optional security context and lifetime. It opens the deploy branch only; with `branch` (a dev-mode branch of the caller), that branch's dev-mode URL only.",
      params: TokenParams,
      body: Type.Ref(DeploymentTokenInput),
      response: { 200: Type.Ref(DeploymentTokenResponse) },
    },
    // The reference's operation takes no body: a call without one asks for the defaults.
    preValidation: emptyBodyIsDefaults,
    handler: async (request) =>
      app.services.deploymentTokens.deploymentToken(principalOf(request), request.params.deploymentId, request.body),
  });
};

/** A POST without a body (as Cube's clients send) means every default. */
export async function emptyBodyIsDefaults(request: FastifyRequest): Promise<void> {
  if (request.body === undefined || request.body === null) request.body = {};
}
