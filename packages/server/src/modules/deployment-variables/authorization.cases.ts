import type { OperationCase } from '../../test-support/authorization.js';
import type { TestAccount } from '../../test-support/server.js';

/** A deployment of the account with one variable set, and the URL of its variables. */
const withVariable = async (account: TestAccount) => {
  const created = await account.request({ method: 'POST', url: '/api/v1/deployments', as: account.admin, body: { name: 'd' } });
  const url = `/api/v1/deployments/${created.body.id}/variables`;
  const body = { variables: [{ name: 'REGION_LABEL', value: 'eu' }] };
  await account.request({ method: 'POST', url, as: account.admin, body });
  return url;
};

/** The deployment variables module's operations, for the shared authorisation suite (run by variables.test.ts). */
export const cases: OperationCase[] = [
  { operation: 'getDeploymentVariables', method: 'GET', prepare: async (account) => ({ url: await withVariable(account) }) },
  {
    operation: 'setDeploymentVariables',
    method: 'POST',
    prepare: async (account) => ({ url: await withVariable(account), body: { variables: [{ name: 'OTHER', value: 'x' }] } }),
  },
  {
    operation: 'deleteDeploymentVariable',
    method: 'DELETE',
    successStatus: 204,
    prepare: async (account) => ({ url: `${await withVariable(account)}/REGION_LABEL` }),
  },
];
