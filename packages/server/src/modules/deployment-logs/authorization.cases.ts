import type { OperationCase } from '../../test-support/authorization.js';
import type { TestAccount } from '../../test-support/server.js';

/** The deployment-logs module's operations, for the shared authorisation suite (run by deployment-logs.test.ts). */
export const cases: OperationCase[] = [
  {
    operation: 'getDeploymentLogs',
    method: 'GET',
    prepare: async (account: TestAccount) => {
      const response = await account.request({ method: 'POST', url: '/api/v1/deployments', as: account.admin, body: { name: 'd' } });
      return { url: `/api/v1/deployments/${response.body.id}/logs?source=production` };
    },
  },
];
