import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf } from '../../http/auth.js';
import { baseUrlOf } from '../../http/base-url.js';
import { PageQuery } from '../../http/pagination.js';
import { deploymentParam, requires } from '../../http/requirement.js';
import { deploymentSettingsRoutes } from './settings-routes.js';
import { CreateDeploymentBody, Deployment, DeploymentList, DeploymentParams } from './schemas.js';

export const deploymentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post('/api/v1/deployments', {
    // A new deployment lies outside any key's scope the moment it exists.
    config: { auth: requires('DeploymentCreate', { resource: 'account', doing: 'create a deployment' }) },
    schema: {
      operationId: 'createDeployment',
      tags: ['Deployment Creation'],
      summary: 'Create a deployment',
      body: Type.Ref(CreateDeploymentBody),
      response: { 201: Type.Ref(Deployment) },
    },
    handler: async (request, reply) => {
      const created = await app.services.deployments.create(request.account.id, request.body, baseUrlOf(request));
      return reply.code(201).send(created);
    },
  });

  app.get('/api/v1/deployments', {
    // Lists only the caller's deployments.
    config: { auth: requires('DeploymentRead', { resource: 'withinScope' }) },
    schema: {
      operationId: 'getDeployments',
      tags: ['Deployments'],
      summary: 'Get deployments',
      querystring: PageQuery,
      response: { 200: Type.Ref(DeploymentList) },
    },
    handler: async (request) => app.services.deployments.list(principalOf(request), request.query, baseUrlOf(request)),
  });

  app.get('/api/v1/deployments/:deploymentId', {
    config: { auth: requires('DeploymentRead', { resource: deploymentParam() }) },
    schema: {
      operationId: 'getDeployment',
      tags: ['Deployments'],
      summary: 'Get a deployment',
      params: DeploymentParams,
      response: { 200: Type.Ref(Deployment) },
    },
    handler: async (request) => app.services.deployments.get(principalOf(request), request.params.deploymentId, baseUrlOf(request)),
  });

  await deploymentSettingsRoutes(app, {});
};
