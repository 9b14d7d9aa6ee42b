import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { baseUrlOf } from '../../http/base-url.js';
import { NoContent } from '../../http/common-schemas.js';
import { deploymentParam, requires } from '../../http/requirement.js';
import { Deployment, DeploymentParams, DeploymentSettings, EngineVersionList, RegionList, UpdateDeploymentBody } from './schemas.js';

const resource = { resource: deploymentParam() };
const tags = ['Deployments'];
const AtLastStep = Type.Ref('Error', { description: 'The deployment is already ready, its last creation step.' });

/** Deployments in full (issue 14): update, delete, settings, engine versions, creation steps and regions. */
export const deploymentSettingsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const deployments = app.services.deployments;

  app.put('/api/v1/deployments/:deploymentId', {
    config: { auth: requires('DeploymentUpdate', resource) },
    schema: {
      operationId: 'updateDeployment',
      tags,
      summary: 'Update a deployment',
      description: "Fields left out keep their value. `releaseChannel` alone moves to that channel's latest version.",
      params: DeploymentParams,
      body: Type.Ref(UpdateDeploymentBody),
      response: { 200: Type.Ref(DeploymentSettings) },
    },
    handler: async (request) => deployments.update(request.account.id, request.params.deploymentId, request.body, baseUrlOf(request)),
  });

  app.delete('/api/v1/deployments/:deploymentId', {
    config: { auth: requires('DeploymentDelete', resource) },
    schema: {
      operationId: 'deleteDeployment',
      tags,
      summary: 'Delete a deployment',
      description: 'Its branches, files, builds, logs and embed sessions go with it, and so does its embedded DuckDB warehouse.',
      params: DeploymentParams,
      response: { 204: NoContent },
    },
    handler: async (request, reply) => {
      await deployments.delete(request.account.id, request.params.deploymentId);
      return reply.code(204).send(null);
    },
  });

  app.get('/api/v1/deployments/:deploymentId/settings', {
    config: { auth: requires('DeploymentRead', resource) },
    schema: {
      operationId: 'getDeploymentSettings',
      tags,
      summary: "A deployment's settings, the engine version and channel in effect included",
      params: DeploymentParams,
      response: { 200: Type.Ref(DeploymentSettings) },
    },
    handler: async (request) => deployments.settings(request.account.id, request.params.deploymentId, baseUrlOf(request)),
  });

  app.get('/api/v1/deployments/:deploymentId/versions', {
    config: { auth: requires('DeploymentRead', resource) },
    schema: {
      operationId: 'getDeploymentVersions',
      tags,
      summary: 'The engine versions a deployment may switch to, per release channel',
      params: DeploymentParams,
      response: { 200: Type.Ref(EngineVersionList) },
    },
    handler: async (request) => deployments.versions(request.account.id, request.params.deploymentId),
  });

  for (const [verb, operationId, summary] of [
    ['advance-step', 'advanceDeploymentCreationStep', 'Move a deployment to its next creation step'],
    ['reset-step', 'resetDeploymentCreationStep', 'Start a deployment\'s creation steps again at "project"'],
  ] as const) {
    app.post(`/api/v1/deployments/:deploymentId/${verb}`, {
      config: { auth: requires('DeploymentUpdate', resource) },
      schema: {
        operationId,
        tags: ['Deployment Creation'],
        summary,
        params: DeploymentParams,
        response: verb === 'advance-step' ? { 200: Type.Ref(Deployment), 409: AtLastStep } : { 200: Type.Ref(Deployment) },
      },
      handler: async (request) => {
        const { id } = request.account;
        const { deploymentId } = request.params;
        return verb === 'advance-step'
          ? deployments.advanceStep(id, deploymentId, baseUrlOf(request))
          : deployments.resetStep(id, deploymentId, baseUrlOf(request));
      },
    });
  }

  app.get('/api/v1/regions', {
    config: { auth: requires('DeploymentRead', { resource: 'withinScope' }) },
    schema: {
      operationId: 'getRegions',
      tags: ['Regions'],
      summary: 'Regions a deployment may be created in',
      response: { 200: Type.Ref(RegionList) },
    },
    handler: async () => deployments.regions(),
  });
};
