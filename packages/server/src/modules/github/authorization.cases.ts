import type { OperationCase } from '../../test-support/authorization.js';
import { connectedDeployment, INSTALLATION, newDeployment, REPOSITORY, sharedConnectedDeployment } from './test-fixtures.js';

/**
 * The GitHub module's operations, for the shared authorisation suite (run by github.test.ts, whose
 * server talks to the stand-in GitHub of test-fixtures.ts). The webhook is public: GitHub signs it.
 */
export const cases: OperationCase[] = [
  { operation: 'getGithubStatus', method: 'GET', targetsResource: false, prepare: async () => ({ url: '/api/v1/github' }) },
  {
    operation: 'listGithubInstallations',
    method: 'GET',
    targetsResource: false,
    prepare: async () => ({ url: '/api/v1/github/installations' }),
  },
  {
    operation: 'listGithubRepositories',
    method: 'GET',
    targetsResource: false,
    prepare: async () => ({ url: `/api/v1/github/installations/${INSTALLATION}/repositories` }),
  },
  {
    operation: 'listGithubBranches',
    method: 'GET',
    targetsResource: false,
    prepare: async () => ({ url: `/api/v1/github/repositories/${REPOSITORY}/branches?installationId=${INSTALLATION}` }),
  },
  {
    operation: 'connectGithub',
    method: 'POST',
    successStatus: 201,
    prepare: async (account) => ({
      url: `/api/v1/deployments/${await newDeployment(account)}/github`,
      body: { repository: REPOSITORY, installationId: INSTALLATION, branch: 'main' },
    }),
  },
  {
    operation: 'getGithubConnection',
    method: 'GET',
    prepare: async (account) => ({ url: `/api/v1/deployments/${await sharedConnectedDeployment(account)}/github` }),
  },
  {
    operation: 'disconnectGithub',
    method: 'DELETE',
    successStatus: 204,
    prepare: async (account) => ({ url: `/api/v1/deployments/${await connectedDeployment(account)}/github` }),
  },
  {
    operation: 'syncGithub',
    method: 'POST',
    successStatus: 202,
    prepare: async (account) => ({ url: `/api/v1/deployments/${await connectedDeployment(account)}/github/sync` }),
  },
];
