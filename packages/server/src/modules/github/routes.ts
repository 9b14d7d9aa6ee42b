import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { principalOf } from '../../http/auth.js';
import { NoContent } from '../../http/common-schemas.js';
import { deploymentParam, requires } from '../../http/requirement.js';
import { DeploymentParams } from '../deployments/schemas.js';
import {
  BranchesParams,
  ConnectGithubBody,
  GithubBranchList,
  GithubConnection,
  GithubImport,
  GithubInstallationList,
  GithubRepositoryList,
  GithubStatus,
  GithubSyncQueued,
  InstallationParams,
  RepositoryQuery,
} from './schemas.js';
import { githubWebhookRoute } from './webhook-route.js';

const GITHUB = ['GitHub'];
const CONNECTION = ['GitHub Connection'];
const error = (description: string) => Type.Ref('Error', { description });
const githubFailed = error(
  'GitHub could not be reached or answered with an error of its own (rate limit, outage); the message says which.',
);
const refused = error('GitHub is not configured, or it refused the App credentials, or does not know what the request names.');
/** The App's installations reach beyond any one deployment: seeing them is part of creating deployments from GitHub. */
const appAuth = (doing: string) => ({ auth: requires('DeploymentCreate', { resource: 'account', doing }) });
const deployment = { resource: deploymentParam() };

export const githubRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const github = () => app.services.github;

  app.get('/api/v1/github', {
    // Names only the caller's connected deployments.
    config: { auth: requires('DeploymentRead', { resource: 'withinScope', doing: 'read the GitHub status' }) },
    schema: {
      operationId: 'getGithubStatus',
      tags: GITHUB,
      summary: "Whether GitHub is configured, the App's name, and the deployments connected",
      description: 'Asks GitHub for the App (GET /app); when that fails, `error` says why instead of the call failing.',
      response: { 200: Type.Ref(GithubStatus) },
    },
    handler: async (request) => github().status(principalOf(request)),
  });

  app.get('/api/v1/github/installations', {
    config: appAuth('list GitHub installations'),
    schema: {
      operationId: 'listGithubInstallations',
      tags: GITHUB,
      summary: 'List the installations of the GitHub App',
      response: { 200: Type.Ref(GithubInstallationList), 400: refused, 502: githubFailed },
    },
    handler: async () => github().installations(),
  });

  app.get('/api/v1/github/installations/:installationId/repositories', {
    config: appAuth('list GitHub repositories'),
    schema: {
      operationId: 'listGithubRepositories',
      tags: GITHUB,
      summary: 'List the repositories an installation of the GitHub App may read',
      params: InstallationParams,
      response: { 200: Type.Ref(GithubRepositoryList), 400: refused, 502: githubFailed },
    },
    handler: async (request) => github().repositories(request.params.installationId),
  });

  app.get('/api/v1/github/repositories/:owner/:repo/branches', {
    config: appAuth('list GitHub branches'),
    schema: {
      operationId: 'listGithubBranches',
      tags: GITHUB,
      summary: "List a repository's branches, through an installation of the GitHub App",
      params: BranchesParams,
      querystring: RepositoryQuery,
      response: { 200: Type.Ref(GithubBranchList), 400: refused, 502: githubFailed },
    },
    handler: async (request) => github().branches(request.query.installationId, `${request.params.owner}/${request.params.repo}`),
  });

  app.post('/api/v1/deployments/:deploymentId/github', {
    config: { auth: requires('DeploymentUpdate', { ...deployment, doing: 'connect a deployment to GitHub' }) },
    schema: {
      operationId: 'connectGithub',
      tags: CONNECTION,
      summary: 'Connect a deployment to a repository: import its data model onto the deploy branch and build it',
      description:
        "Clones the branch (with the installation's token for `owner/repo`, or any git URL or absolute path without an installation), " +
        "makes the files of `directory` (default `model`) the deploy branch's `model/` folder in one commit, and queues its build. " +
        'Connecting again replaces the connection. A repository that cannot be read changes nothing.',
      params: DeploymentParams,
      body: Type.Ref(ConnectGithubBody),
      response: {
        201: Type.Ref(GithubImport),
        400: error(
          'The repository cannot be reached, the branch or folder does not exist, credentials were refused, or there are no files.',
        ),
        409: Type.Ref('DataModelConflict', { description: 'The deploy branch changed the same files meanwhile.' }),
        413: error('A file is larger than 1 MiB.'),
        422: error('The model would exceed 5,000 files or 50 MiB.'),
        502: githubFailed,
      },
    },
    handler: async (request, reply) => {
      const imported = await github().connect(principalOf(request), request.params.deploymentId, request.body);
      return reply.code(201).send(imported);
    },
  });

  app.get('/api/v1/deployments/:deploymentId/github', {
    config: { auth: requires('DeploymentRead', deployment) },
    schema: {
      operationId: 'getGithubConnection',
      tags: CONNECTION,
      summary: "A deployment's GitHub connection and how its last import went",
      params: DeploymentParams,
      response: { 200: Type.Ref(GithubConnection), 404: error('The deployment does not exist or is not connected.') },
    },
    handler: async (request) => github().get(request.account.id, request.params.deploymentId),
  });

  app.delete('/api/v1/deployments/:deploymentId/github', {
    config: { auth: requires('DeploymentUpdate', { ...deployment, doing: 'disconnect a deployment from GitHub' }) },
    schema: {
      operationId: 'disconnectGithub',
      tags: CONNECTION,
      summary: 'Disconnect a deployment from its repository; the imported files stay',
      params: DeploymentParams,
      response: { 204: NoContent, 404: error('The deployment does not exist or is not connected.') },
    },
    handler: async (request, reply) => {
      await github().disconnect(request.account.id, request.params.deploymentId);
      return reply.code(204).send(null);
    },
  });

  app.post('/api/v1/deployments/:deploymentId/github/sync', {
    config: { auth: requires('DeploymentUpdate', { ...deployment, doing: 'sync a deployment from GitHub' }) },
    schema: {
      operationId: 'syncGithub',
      tags: CONNECTION,
      summary: "Queue an import of the connected branch's head, as a push would",
      description: 'The import runs as a `github.import` job; one already queued or running for the deployment is reused.',
      params: DeploymentParams,
      response: { 202: Type.Ref(GithubSyncQueued), 404: error('The deployment does not exist or is not connected.') },
    },
    handler: async (request, reply) => reply.code(202).send(await github().sync(request.account.id, request.params.deploymentId)),
  });

  await app.register(githubWebhookRoute);
};
