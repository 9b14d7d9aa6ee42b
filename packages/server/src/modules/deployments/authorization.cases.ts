import type { OperationCase } from '../../test-support/authorization.js';
import type { TestAccount } from '../../test-support/server.js';

const existing = async (account: TestAccount) => {
  const response = await account.request({ method: 'POST', url: '/api/v1/deployments', as: account.admin, body: { name: 'd' } });
  return { url: `/api/v1/deployments/${response.body.id}` };
};

const under = async (account: TestAccount, path: string) => ({ url: `${(await existing(account)).url}/${path}` });

/** The deployments module's operations, for the shared authorisation suite (run by deployments.test.ts). */
export const cases: OperationCase[] = [
  {
    operation: 'createDeployment',
    method: 'POST',
    successStatus: 201,
    targetsResource: false,
    prepare: async () => ({ url: '/api/v1/deployments', body: { name: 'd' } }),
  },
  { operation: 'getDeployments', method: 'GET', targetsResource: false, prepare: async () => ({ url: '/api/v1/deployments' }) },
  { operation: 'getDeployment', method: 'GET', prepare: existing },
  { operation: 'updateDeployment', method: 'PUT', prepare: async (account) => ({ ...(await existing(account)), body: { name: 'e' } }) },
  { operation: 'deleteDeployment', method: 'DELETE', successStatus: 204, prepare: existing },
  { operation: 'getDeploymentSettings', method: 'GET', prepare: async (account) => under(account, 'settings') },
  { operation: 'getDeploymentVersions', method: 'GET', prepare: async (account) => under(account, 'versions') },
  { operation: 'advanceDeploymentCreationStep', method: 'POST', prepare: async (account) => under(account, 'advance-step') },
  { operation: 'resetDeploymentCreationStep', method: 'POST', prepare: async (account) => under(account, 'reset-step') },
  { operation: 'getRegions', method: 'GET', targetsResource: false, prepare: async () => ({ url: '/api/v1/regions' }) },
];
