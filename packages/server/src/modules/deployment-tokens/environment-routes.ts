import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf } from '../../http/auth.js';
import { baseUrlOf } from '../../http/base-url.js';
import { deploymentParam, requires } from '../../http/requirement.js';
import {
  CreateDeploymentEnvironmentTokenInput,
  DeploymentEnvironmentsListResponse,
  DeploymentEnvironmentSqlCredentialResponse,
  DeploymentEnvironmentTokenResponse,
  DeploymentEnvironmentTokensListResponse,
  EnvironmentParams,
  EnvironmentsQuery,
  OffsetQuery,
} from './environment-schemas.js';
import { TokenParams } from './schemas.js';

const tags = ['Environments'];
// Environment tokens read the deployment's data: listing them shows them, so it needs what minting needs.
const tokenAuth = { auth: requires('DeploymentUpdate', { resource: deploymentParam(), doing: 'see or mint environment tokens' }) };

export const environmentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ops = app.services.deploymentTokens.environments;

  app.get('/api/v1/deployments/:deploymentId/environments', {
    config: { auth: requires('DeploymentRead', { resource: deploymentParam() }) },
    schema: {
      operationId: 'getDeploymentEnvironments',
      tags,
      summary: 'Get deployment environments',
      description:
        'Production (the deploy branch), staging (each shared branch with its environment enabled) and development (your dev branches).',
      params: TokenParams,
      querystring: EnvironmentsQuery,
      response: { 200: Type.Ref(DeploymentEnvironmentsListResponse) },
    },
    handler: async (request) => ops.list(principalOf(request), request.params.deploymentId, baseUrlOf(request), request.query),
  });

  app.get('/api/v1/deployments/:deploymentId/environments/:environmentId/tokens', {
    config: tokenAuth,
    schema: {
      operationId: 'getDeploymentEnvironmentTokens',
      tags,
      summary: 'Get deployment environment tokens',
      params: EnvironmentParams,
      querystring: OffsetQuery,
      response: { 200: Type.Ref(DeploymentEnvironmentTokensListResponse) },
    },
    handler: async (request) =>
      ops.tokens(principalOf(request), request.params.deploymentId, request.params.environmentId, baseUrlOf(request), request.query),
  });

  for (const [path, operationId, summary, forMetaSync] of [
    ['tokens', 'createDeploymentEnvironmentToken', 'Create deployment environment token', false],
    ['tokens-for-meta-sync', 'createDeploymentEnvironmentTokenForMetaSync', 'Create deployment environment token for meta sync', true],
  ] as const) {
    app.post(`/api/v1/deployments/:deploymentId/environments/:environmentId/${path}`, {
      config: tokenAuth,
      schema: {
        operationId,
        tags,
        summary,
        params: EnvironmentParams,
        body: Type.Ref(CreateDeploymentEnvironmentTokenInput),
        response: { 200: Type.Ref(DeploymentEnvironmentTokenResponse) },
      },
      handler: async (request) =>
        ops.createToken(
          principalOf(request),
          request.params.deploymentId,
          request.params.environmentId,
          baseUrlOf(request),
          request.body,
          forMetaSync,
        ),
    });
  }

  app.post('/api/v1/deployments/:deploymentId/environments/:environmentId/sql-credentials/rotate', {
    // Whoever may mint the environment's tokens may replace its SQL password: both reach its data.
    config: { auth: requires('DeploymentUpdate', { resource: deploymentParam(), doing: "rotate an environment's SQL password" }) },
    schema: {
      operationId: 'rotateDeploymentEnvironmentSqlPassword',
      tags,
      summary: "Rotate a deployment environment's SQL password",
      description:
        "A new password for the environment's SQL API user, answered this once. New connections with the old password are refused at once; sessions already open stay open until they end.",
      params: EnvironmentParams,
      response: { 200: Type.Ref(DeploymentEnvironmentSqlCredentialResponse) },
    },
    handler: async (request) =>
      ops.rotateSqlPassword(principalOf(request), request.params.deploymentId, request.params.environmentId, baseUrlOf(request)),
  });
};
