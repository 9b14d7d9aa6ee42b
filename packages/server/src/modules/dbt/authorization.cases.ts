import { createGitRepo, type TestGitRepo } from '../../git/test-repos.js';
import type { OperationCase } from '../../test-support/authorization.js';
import type { TestAccount } from '../../test-support/server.js';
import { newDeployment } from '../builds/test-fixtures.js';
import { dbtBase } from './test-fixtures.js';

/** One small repository for every check: connecting only asks it for its branches. */
let shared: Promise<TestGitRepo> | undefined;
const repository = async () => (await (shared ??= createGitRepo({ 'dbt_project.yml': 'name: shop\n' }))).dir;

/** A deployment of the account connected to the shared repository; answers its dbt URL. */
const withIntegration = async (account: TestAccount) => {
  const deploymentId = await newDeployment(account);
  const url = dbtBase(deploymentId);
  await account.request({ method: 'PUT', url, as: account.admin, body: { repository: await repository() } });
  return url;
};

/** A queued sync (never run here), or one cancelled so that its result is there. */
const withSync = async (account: TestAccount, cancelled = false) => {
  const base = await withIntegration(account);
  const started = await account.request({ method: 'POST', url: `${base}/syncs`, as: account.admin, body: {} });
  const url = `${base}/syncs/${started.body.syncJobId}`;
  if (cancelled) await account.request({ method: 'POST', url: `${url}/cancel`, as: account.admin, body: {} });
  return url;
};

/** The dbt module's operations, for the shared authorisation suite (run by integration.test.ts). */
export const cases: OperationCase[] = [
  {
    operation: 'connectDbt',
    method: 'PUT',
    prepare: async (account) => ({ url: dbtBase(await newDeployment(account)), body: { repository: await repository() } }),
  },
  { operation: 'getDbtIntegration', method: 'GET', prepare: async (account) => ({ url: await withIntegration(account) }) },
  {
    operation: 'disconnectDbt',
    method: 'DELETE',
    successStatus: 204,
    prepare: async (account) => ({ url: await withIntegration(account) }),
  },
  {
    operation: 'startDbtSync',
    method: 'POST',
    successStatus: 202,
    prepare: async (account) => ({ url: `${await withIntegration(account)}/syncs`, body: {} }),
  },
  { operation: 'getDbtSyncStatus', method: 'GET', prepare: async (account) => ({ url: await withSync(account) }) },
  { operation: 'getDbtSyncResult', method: 'GET', prepare: async (account) => ({ url: `${await withSync(account, true)}/result` }) },
  { operation: 'cancelDbtSync', method: 'POST', prepare: async (account) => ({ url: `${await withSync(account)}/cancel`, body: {} }) },
];
