import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { NoContent } from '../../http/common-schemas.js';
import { deploymentParam, requires } from '../../http/requirement.js';
import { DeploymentParams } from '../deployments/schemas.js';
import { DeploymentVariableList, DeploymentVariableParams, SetDeploymentVariablesBody } from './schemas.js';

const resource = { resource: deploymentParam() };
const tags = ['Env Variables'];

export const deploymentVariableRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const variables = app.services.deploymentVariables;

  app.get('/api/v1/deployments/:deploymentId/variables', {
    config: { auth: requires('DeploymentRead', resource) },
    schema: {
      operationId: 'getDeploymentVariables',
      tags,
      summary: "List a deployment's environment variables, secrets masked",
      params: DeploymentParams,
      response: { 200: Type.Ref(DeploymentVariableList) },
    },
    handler: async (request) => variables.list(request.account.id, request.params.deploymentId),
  });

  app.post('/api/v1/deployments/:deploymentId/variables', {
    config: { auth: requires('DeploymentUpdate', resource) },
    schema: {
      operationId: 'setDeploymentVariables',
      tags,
      summary: "Set environment variables of a deployment and rebuild its deploy branch's head",
      description:
        'Creates or replaces each variable given; the others keep their values. The `CUBEJS_DB_*` variables configure the warehouse and must make a valid combination as a whole.',
      params: DeploymentParams,
      body: Type.Ref(SetDeploymentVariablesBody),
      response: { 200: Type.Ref(DeploymentVariableList) },
    },
    handler: async (request) => variables.set(request.account.id, request.params.deploymentId, request.body),
  });

  app.delete('/api/v1/deployments/:deploymentId/variables/:name', {
    config: { auth: requires('DeploymentUpdate', resource) },
    schema: {
      operationId: 'deleteDeploymentVariable',
      tags,
      summary: "Unset an environment variable of a deployment and rebuild its deploy branch's head",
      params: DeploymentVariableParams,
      response: { 204: NoContent },
    },
    handler: async (request, reply) => {
      await variables.unset(request.account.id, request.params.deploymentId, request.params.name);
      return reply.code(204).send(null);
    },
  });
};
