import type { TestAccount, TestServer } from '../../test-support/server.js';
import { newDeployment } from '../builds/test-fixtures.js';

/** A fresh deployment and helpers to call the CI gate's routes on it as the admin's key (or another credential). */
export async function gateOf(server: TestServer, account: TestAccount) {
  const deploymentId = await newDeployment(account);
  const base = `/build/api/v1/deployments/${deploymentId}`;
  const call = (url: string, body?: unknown, as: Parameters<TestAccount['request']>[0]['as'] = account.admin) =>
    account.request({ method: 'POST', url: `${base}${url}`, body, as });
  return {
    deploymentId,
    base,
    start: (body: unknown, as?: Parameters<TestAccount['request']>[0]['as']) => call('/ci-runs', body, as),
    heartbeat: (runId: number, as?: Parameters<TestAccount['request']>[0]['as']) => call(`/ci-runs/${runId}/heartbeat`, undefined, as),
    finish: (runId: number, outcome: string, as?: Parameters<TestAccount['request']>[0]['as']) =>
      call(`/ci-runs/${runId}/finish`, { outcome }, as),
    devMode: async (as: Parameters<TestAccount['request']>[0]['as'] = account.admin) =>
      (await account.request({ method: 'GET', url: `${base}/dev-mode`, as })).body as { active: boolean; branchName: string | null },
    enterDevMode: async (as: Parameters<TestAccount['request']>[0]['as'] = account.admin) => {
      const response = await account.request({ method: 'POST', url: `${base}/dev-mode`, body: { branch: 'main' }, as });
      if (response.status !== 200) throw new Error(`dev-mode: ${response.status} ${response.text}`);
      return response.body.branchName as string;
    },
  };
}

/**
 * Moves the lease clock and the job runner's clock together by `ms` for the duration of `work`:
 * a lease "lapses" without the test sleeping, and the check job due at its end becomes due.
 */
export async function later<T>(server: TestServer, ms: number, work: () => Promise<T>): Promise<T> {
  const gate = server.services.ciGate;
  const queue = server.jobs.queue;
  const [gateNow, queueNow] = [gate.now, queue.now];
  gate.now = () => Date.now() + ms;
  queue.now = () => Date.now() + ms;
  try {
    return await work();
  } finally {
    gate.now = gateNow;
    queue.now = queueNow;
  }
}
