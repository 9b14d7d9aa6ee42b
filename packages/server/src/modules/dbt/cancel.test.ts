import { afterAll, expect, it } from 'vitest';
import type { TestGitRepo } from '../../git/test-repos.js';
import { createJobRunner } from '../../jobs/index.js';
import { JobQueue } from '../../store/jobs.js';
import { describeOnStores, type TestAccount } from '../../test-support/server.js';
import { JobAbort, runSyncJob } from './run-fixtures.js';
import { connected, sampleDbtRepo, startSync, syncStatus } from './test-fixtures.js';

let source: TestGitRepo;
afterAll(async () => source?.remove());
const repo = async () => (source ??= await sampleDbtRepo()).dir;

const cancel = (account: TestAccount, base: string, id: number) =>
  account.request({ method: 'POST', url: `${base}/syncs/${id}/cancel`, as: account.admin, body: {} });

async function branches(account: TestAccount, deploymentId: number): Promise<string[]> {
  const list = await account.request({ method: 'GET', url: `/build/api/v1/deployments/${deploymentId}/branches`, as: account.admin });
  return list.body.items.map((b: { name: string }) => b.name);
}

const statuses = (body: { stages: Array<{ status: string }> }) => body.stages.map((s) => s.status);

describeOnStores('dbt sync cancel and claims', (server) => {
  it('a queued sync is cancelled at once and never runs; a second cancel is a 409', async () => {
    const { account, base } = await connected(server(), await repo());
    const started = await startSync(account, base);
    const cancelled = await cancel(account, base, started.body.syncJobId);
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body).toMatchObject({ status: 'CANCELLED', branchName: null });
    expect(statuses(cancelled.body)).toEqual(['cancelled', 'skipped', 'skipped', 'skipped', 'skipped']);
    await server().jobs.runUntilIdle();
    expect((await syncStatus(account, base, started.body.syncJobId)).body.stages[0].startedAt).not.toBe(null);
    const row = await server().services.dbt.repo.syncById(started.body.syncJobId);
    expect([row!.state, row!.worker_id]).toEqual(['cancelled', null]);
    const again = await cancel(account, base, started.body.syncJobId);
    expect([again.status, again.body.error]).toEqual([
      409,
      `dbt sync ${started.body.syncJobId} is already CANCELLED; only a queued or running sync can be cancelled`,
    ]);
  });

  it('a cancel while the sync runs stops it at its next stage: CANCELLED there, no branch', async () => {
    const { account, deploymentId, base } = await connected(server(), await repo());
    const before = await branches(account, deploymentId);
    const started = await startSync(account, base);
    const id = started.body.syncJobId;
    // Cancelled from the API while it parses: the job learns it when it records the next stage.
    const { result } = await runSyncJob(server(), id, async (beat) => {
      if (beat === 2) {
        const flagged = await cancel(account, base, id);
        expect(flagged.body.status).toBe('RUNNING');
      }
    });
    expect(result).toEqual({ status: 'cancelled' });
    const status = await syncStatus(account, base, id);
    expect(status.body).toMatchObject({ status: 'CANCELLED', stage: 'parse', branchName: null, buildId: null });
    expect(statuses(status.body)).toEqual(['done', 'cancelled', 'skipped', 'skipped', 'skipped']);
    expect(await branches(account, deploymentId)).toEqual(before);
  });

  it('a cancel that reaches the job through its signal just before write leaves no branch', async () => {
    const { account, deploymentId, base } = await connected(server(), await repo());
    const before = await branches(account, deploymentId);
    const started = await startSync(account, base);
    const { result } = await runSyncJob(server(), started.body.syncJobId, async (beat, abort) => {
      if (beat === 5) abort(new JobAbort('cancelled'));
    });
    expect(result).toEqual({ status: 'cancelled' });
    const status = await syncStatus(account, base, started.body.syncJobId);
    expect(status.body).toMatchObject({ status: 'CANCELLED', stage: 'write', branchName: null });
    expect(await branches(account, deploymentId)).toEqual(before);
  });

  it('a cancel once the branch is written cancels its build and deletes the branch', async () => {
    const { account, deploymentId, base } = await connected(server(), await repo());
    const started = await startSync(account, base);
    await runSyncJob(server(), started.body.syncJobId);
    const written = await syncStatus(account, base, started.body.syncJobId);
    expect(written.body).toMatchObject({ status: 'RUNNING', stage: 'build' });
    expect(await branches(account, deploymentId)).toContain(written.body.branchName);
    const cancelled = await cancel(account, base, started.body.syncJobId);
    expect(cancelled.body).toMatchObject({ status: 'CANCELLED', branchName: written.body.branchName });
    expect(statuses(cancelled.body)).toEqual(['done', 'done', 'done', 'done', 'cancelled']);
    expect(await branches(account, deploymentId)).not.toContain(written.body.branchName);
    const build = await account.request({
      method: 'GET',
      url: `/api/v1/deployments/${deploymentId}/builds/${written.body.buildId}`,
      as: account.admin,
    });
    expect(build.body.status).toBe('cancelled');
    await server().jobs.runUntilIdle();
    expect((await syncStatus(account, base, started.body.syncJobId)).body.status).toBe('CANCELLED');
  });

  it('two runners on one store: each sync is claimed and run by exactly one of them', async () => {
    const { account, base } = await connected(server(), await repo());
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push((await startSync(account, base)).body.syncJobId);
    const other = createJobRunner({ store: server().store, services: server().services, config: server().config });
    await Promise.all([server().jobs.runUntilIdle(), other.runUntilIdle()]);
    const workers = [server().jobs.workerId, other.workerId];
    const queue = new JobQueue(server().store.db);
    for (const id of ids) {
      const status = await syncStatus(account, base, id);
      expect(status.body.status).toBe('COMPLETED');
      const row = (await server().services.dbt.repo.syncById(id))!;
      expect(workers).toContain(row.worker_id);
      const job = (await queue.find(Number(row.job_id)))!;
      expect([job.state, job.attempts]).toEqual(['succeeded', 1]);
    }
    // The branches are distinct even for one commit synced three times.
    const names = await Promise.all(ids.map(async (id) => (await syncStatus(account, base, id)).body.branchName));
    expect(new Set(names).size).toBe(3);
  });
});
