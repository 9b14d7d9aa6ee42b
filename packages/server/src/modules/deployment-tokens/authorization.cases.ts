import type { OperationCase } from '../../test-support/authorization.js';
import type { TestAccount } from '../../test-support/server.js';

const deployment = async (account: TestAccount) => {
  const response = await account.request({ method: 'POST', url: '/api/v1/deployments', as: account.admin, body: { name: 'd' } });
  return response.body.id as number;
};

/** The production environment of a fresh deployment (its deploy branch), by the environments list. */
const production = async (account: TestAccount) => {
  const id = await deployment(account);
  const listed = await account.request({ method: 'GET', url: `/api/v1/deployments/${id}/environments`, as: account.admin });
  return `/api/v1/deployments/${id}/environments/${listed.body.data[0].id}`;
};

/** The deployment-tokens module's operations, for the shared authorisation suite (run by tokens.test.ts). */
export const cases: OperationCase[] = [
  {
    operation: 'deploymentToken',
    method: 'POST',
    prepare: async (account) => ({ url: `/api/v1/deployments/${await deployment(account)}/token`, body: {} }),
  },
  {
    operation: 'getDeploymentEnvironments',
    method: 'GET',
    prepare: async (account) => ({ url: `/api/v1/deployments/${await deployment(account)}/environments` }),
  },
  {
    operation: 'getDeploymentEnvironmentTokens',
    method: 'GET',
    prepare: async (account) => ({ url: `${await production(account)}/tokens` }),
  },
  {
    operation: 'createDeploymentEnvironmentToken',
    method: 'POST',
    prepare: async (account) => ({ url: `${await production(account)}/tokens`, body: { security_context: {} } }),
  },
  {
    operation: 'createDeploymentEnvironmentTokenForMetaSync',
    method: 'POST',
    prepare: async (account) => ({ url: `${await production(account)}/tokens-for-meta-sync`, body: { security_context: {} } }),
  },
  {
    operation: 'rotateDeploymentEnvironmentSqlPassword',
    method: 'POST',
    prepare: async (account) => ({ url: `${await production(account)}/sql-credentials/rotate` }),
  },
];
