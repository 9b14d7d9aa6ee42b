import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf } from '../../http/auth.js';
import { deploymentParam, requires } from '../../http/requirement.js';
import { DeploymentParams } from '../deployments/schemas.js';
import { BranchQuery, Build, BuildList, BuildParams, BuildsQuery, RebuildBody, ValidateBody, ValidateResult } from './schemas.js';

const resource = { resource: deploymentParam() };

export const buildRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post('/build/api/v1/deployments/:deploymentId/validate', {
    config: { auth: requires('SchemaUpdateDevBranches', resource) },
    schema: {
      operationId: 'validateDataModel',
      tags: ['Data Model'],
      summary: "Compile a branch's data model and report the compiler's errors",
      params: DeploymentParams,
      body: Type.Ref(ValidateBody),
      response: { 200: Type.Ref(ValidateResult) },
    },
    handler: async (request) => app.services.builds.validate(principalOf(request), request.params.deploymentId, request.body),
  });

  app.get('/api/v1/deployments/:deploymentId/build-status', {
    config: { auth: requires('DeploymentRead', resource) },
    schema: {
      operationId: 'getDeploymentBuildStatus',
      tags: ['Deployments'],
      summary: "The build status of a branch's head",
      params: DeploymentParams,
      querystring: BranchQuery,
      response: { 200: Type.Ref(Build) },
    },
    handler: async (request) => app.services.builds.status(principalOf(request), request.params.deploymentId, request.query.branch),
  });

  app.get('/api/v1/deployments/:deploymentId/builds', {
    config: { auth: requires('DeploymentRead', resource) },
    schema: {
      operationId: 'getDeploymentBuilds',
      tags: ['Deployments'],
      summary: 'List the builds of a branch, newest first',
      params: DeploymentParams,
      querystring: BuildsQuery,
      response: { 200: Type.Ref(BuildList) },
    },
    handler: async (request) => app.services.builds.list(principalOf(request), request.params.deploymentId, request.query),
  });

  app.get('/api/v1/deployments/:deploymentId/builds/:buildId', {
    config: { auth: requires('DeploymentRead', resource) },
    schema: {
      operationId: 'getDeploymentBuild',
      tags: ['Deployments'],
      summary: 'Get a build',
      params: BuildParams,
      response: { 200: Type.Ref(Build) },
    },
    handler: async (request) => app.services.builds.get(principalOf(request), request.params.deploymentId, request.params.buildId),
  });

  app.post('/api/v1/deployments/:deploymentId/builds', {
    config: { auth: requires('SchemaUpdate', resource) },
    schema: {
      operationId: 'createDeploymentBuild',
      tags: ['Deployments'],
      summary: "Build a branch's head again",
      params: DeploymentParams,
      body: Type.Ref(RebuildBody),
      response: { 201: Type.Ref(Build) },
    },
    handler: async (request, reply) => {
      const build = await app.services.builds.rebuild(principalOf(request), request.params.deploymentId, request.body.branch);
      return reply.code(201).send(build);
    },
  });

  app.post('/api/v1/deployments/:deploymentId/builds/:buildId/cancel', {
    config: { auth: requires('SchemaUpdate', resource) },
    schema: {
      operationId: 'cancelDeploymentBuild',
      tags: ['Deployments'],
      summary: 'Cancel a build: a queued one at once, a running one at its next step',
      params: BuildParams,
      response: { 200: Type.Ref(Build), 409: Type.Ref('Error', { description: 'The build has already finished.' }) },
    },
    handler: async (request) => app.services.builds.cancel(principalOf(request), request.params.deploymentId, request.params.buildId),
  });
};
