import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { principalOf } from '../../http/auth.js';
import { NoContent } from '../../http/common-schemas.js';
import { deploymentParam, requires } from '../../http/requirement.js';
import { DeploymentParams } from '../deployments/schemas.js';
import { ConnectDbtBody, DbtIntegration, DbtSyncResult, DbtSyncStarted, DbtSyncStatus, StartDbtSyncBody, SyncParams } from './schemas.js';

const resource = { resource: deploymentParam() };
const tags = ['dbt Sync'];
const base = '/build/api/v1/deployments/:deploymentId/dbt';
const error = (description: string) => Type.Ref('Error', { description });
const githubFailed = error('With installationId: GitHub could not be reached or answered an error of its own (rate limit, outage).');

export const dbtRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const dbt = app.services.dbt;

  app.put(base, {
    config: { auth: requires('DeploymentUpdate', resource) },
    schema: {
      operationId: 'connectDbt',
      tags,
      summary: 'Connect a deployment to the Git repository holding its dbt project (or change the connection)',
      description:
        "Asks the remote first: a repository that cannot be reached, credentials it refuses or a branch it does not have is a 400 and changes nothing. The branch defaults to the remote's HEAD, else main. " +
        "A private repository is reached as `github connect` reaches it: with installationId, `repository` is `owner/repo` and every clone uses the installation's clone URL and a fresh token; or an https URL's user and password (or token), stored sealed.",
      params: DeploymentParams,
      body: Type.Ref(ConnectDbtBody),
      response: {
        200: Type.Ref(DbtIntegration),
        400: error(
          'The repository cannot be reached or refused the credentials, the installation cannot reach it (or GitHub is not configured), or the branch or folder is not valid.',
        ),
        502: githubFailed,
      },
    },
    handler: async (request) => dbt.connect(request.account.id, request.params.deploymentId, request.body),
  });

  app.get(base, {
    config: { auth: requires('SchemaRead', resource) },
    schema: {
      operationId: 'getDbtIntegration',
      tags,
      summary: "Show a deployment's dbt integration",
      params: DeploymentParams,
      response: { 200: Type.Ref(DbtIntegration), 404: error('The deployment has no dbt integration.') },
    },
    handler: async (request) => dbt.show(request.account.id, request.params.deploymentId),
  });

  app.delete(base, {
    config: { auth: requires('DeploymentUpdate', resource) },
    schema: {
      operationId: 'disconnectDbt',
      tags,
      summary: "Remove a deployment's dbt integration; its syncs and their branches stay",
      params: DeploymentParams,
      response: { 204: NoContent, 404: error('The deployment has no dbt integration.') },
    },
    handler: async (request, reply) => {
      await dbt.disconnect(request.account.id, request.params.deploymentId);
      return reply.code(204).send(null);
    },
  });

  app.post(`${base}/syncs`, {
    config: { auth: requires('SchemaUpdate', resource) },
    schema: {
      operationId: 'startDbtSync',
      tags,
      summary: 'Start a dbt sync: generate cubes from the dbt project at a branch or tag onto a new branch, and build it',
      description:
        "`ref` defaults to the integration's branch; a commit SHA or an empty value is a 400. The generated branch is named dbt-<ref>-<UTC YYYYMMDDHHmmss>-<sha7>.",
      params: DeploymentParams,
      body: Type.Ref(StartDbtSyncBody),
      response: {
        202: Type.Ref(DbtSyncStarted),
        400: error(
          'The ref is empty, a commit SHA or missing from the repository, the repository cannot be reached or refused the credentials, or there is no dbt integration.',
        ),
        502: githubFailed,
      },
    },
    handler: async (request, reply) =>
      reply.code(202).send(await dbt.startSync(request.account.id, request.params.deploymentId, request.body)),
  });

  app.get(`${base}/syncs/:syncJobId`, {
    config: { auth: requires('SchemaRead', resource) },
    schema: {
      operationId: 'getDbtSyncStatus',
      tags,
      summary: 'The status of a dbt sync, stage by stage',
      params: SyncParams,
      response: { 200: Type.Ref(DbtSyncStatus) },
    },
    handler: async (request) => dbt.status(request.account.id, request.params.deploymentId, request.params.syncJobId),
  });

  app.get(`${base}/syncs/:syncJobId/result`, {
    config: { auth: requires('SchemaRead', resource) },
    schema: {
      operationId: 'getDbtSyncResult',
      tags,
      summary: 'The terminal result of a dbt sync: COMPLETED, FAILED or CANCELLED, with the generated branch',
      params: SyncParams,
      response: { 200: Type.Ref(DbtSyncResult), 409: error('The sync has not finished yet.') },
    },
    handler: async (request) => dbt.result(request.account.id, request.params.deploymentId, request.params.syncJobId),
  });

  app.post(`${base}/syncs/:syncJobId/cancel`, {
    config: { auth: requires('SchemaUpdate', resource) },
    schema: {
      operationId: 'cancelDbtSync',
      tags,
      summary: 'Cancel a dbt sync: it stops at its next stage and leaves no branch',
      description: 'Once the branch is written, its build is cancelled and the branch deleted.',
      params: SyncParams,
      response: { 200: Type.Ref(DbtSyncStatus), 409: error('The sync has already finished.') },
    },
    handler: async (request) => dbt.cancel(principalOf(request), request.params.deploymentId, request.params.syncJobId),
  });
};
