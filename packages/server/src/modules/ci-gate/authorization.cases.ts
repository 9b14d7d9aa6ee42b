import type { OperationCase } from '../../test-support/authorization.js';
import type { TestAccount, TestServer } from '../../test-support/server.js';
import { adminOf, newDeployment } from '../builds/test-fixtures.js';

/** A fresh deployment with a run started by the admin's key; the admin's login may drive it too (same user). */
const withRun = async (account: TestAccount, server: TestServer) => {
  const deploymentId = await newDeployment(account);
  const run = await server.services.ciGate.start(adminOf(account), deploymentId, { ref: 'main', waitSeconds: 0 });
  return `/build/api/v1/deployments/${deploymentId}/ci-runs/${run.runId}`;
};

/** The CI gate's operations, for the shared authorisation suite (run by ci-gate.test.ts). */
export const cases: OperationCase[] = [
  {
    operation: 'startCiRun',
    method: 'POST',
    successStatus: 201,
    prepare: async (account) => ({ url: `/build/api/v1/deployments/${await newDeployment(account)}/ci-runs`, body: { ref: 'main' } }),
  },
  {
    operation: 'heartbeatCiRun',
    method: 'POST',
    prepare: async (account, server) => ({ url: `${await withRun(account, server)}/heartbeat` }),
  },
  {
    operation: 'finishCiRun',
    method: 'POST',
    prepare: async (account, server) => ({ url: `${await withRun(account, server)}/finish`, body: { outcome: 'passed' } }),
  },
];
