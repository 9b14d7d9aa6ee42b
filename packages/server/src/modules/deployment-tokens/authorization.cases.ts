import type { OperationCase } from '../../test-support/authorization.js';
import type { TestAccount } from '../../test-support/server.js';

const deployment = async (account: TestAccount) => {
  const response = await account.request({ method: 'POST', url: '/api/v1/deployments', as: account.admin, body: { name: 'd' } });
  return response.body.id as number;
};

/** The deployment-tokens module's operations, for the shared authorisation suite (run by tokens.test.ts). */
export const cases: OperationCase[] = [
  {
    operation: 'deploymentToken',
    method: 'POST',
    prepare: async (account) => ({ url: `/api/v1/deployments/${await deployment(account)}/token`, body: {} }),
  },
];
