import type { OperationCase } from '../../test-support/authorization.js';
import type { TestAccount, TestServer } from '../../test-support/server.js';
import { adminOf, commitFiles, newDeployment } from '../builds/test-fixtures.js';
import { literalModel } from './test-fixtures.js';

/** A deployment whose build has a built rollup (over a literal query, so no warehouse data is needed). */
async function built(account: TestAccount, server: TestServer): Promise<string> {
  const deploymentId = await newDeployment(account);
  await commitFiles(server.services, adminOf(account), deploymentId, literalModel());
  await server.jobs.runUntilIdle();
  return `/api/v1/deployments/${deploymentId}/pre-aggregations`;
}

/** The pre-aggregations module's operations, for the shared authorisation suite (run by pre-aggregations.test.ts). */
export const cases: OperationCase[] = [
  { operation: 'getPreAggregations', method: 'GET', prepare: async (account, server) => ({ url: await built(account, server) }) },
  {
    operation: 'buildPreAggregations',
    method: 'POST',
    prepare: async (account, server) => ({ url: `${await built(account, server)}/build`, body: {} }),
  },
  {
    operation: 'getPreAggregationJobs',
    method: 'GET',
    prepare: async (account, server) => ({ url: `${await built(account, server)}/jobs` }),
  },
  {
    operation: 'getPreAggregationPreview',
    method: 'GET',
    prepare: async (account, server) => ({ url: `${await built(account, server)}/events.daily/preview` }),
  },
];
