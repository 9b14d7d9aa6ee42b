import type { OperationCase } from '../../test-support/authorization.js';
import type { TestAccount, TestServer } from '../../test-support/server.js';
import { adminOf, commitFiles } from '../builds/test-fixtures.js';
import { countCube } from '../../test-support/models.js';

/** A deployment whose deploy branch holds one built cube. */
export async function builtDeployment(
  account: TestAccount,
  server: TestServer,
  files: Record<string, string> = { 'model/orders.yml': countCube('orders') },
) {
  const deploymentId = (await server.services.deployments.create(account.id, { name: 'd' }, 'http://localhost')).id;
  await commitFiles(server.services, adminOf(account), deploymentId, files);
  await server.jobs.runUntilIdle();
  return deploymentId;
}

/** The metadata module's operation, for the shared authorisation suite (run by metadata.test.ts). */
export const cases: OperationCase[] = [
  {
    operation: 'getMetadata',
    method: 'POST',
    prepare: async (account, server) => ({
      url: '/api/v1/meta',
      body: { selectors: ['*'], deploymentId: await builtDeployment(account, server) },
    }),
  },
];
