import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStoreAgain } from '../../test-support/stores.js';
import { createJobRunner } from '../../jobs/index.js';
import type { JobRunner } from '../../jobs/runner.js';
import { createServices } from '../../services.js';
import type { Store } from '../../store/store.js';
import { startTestServer, type TestServer } from '../../test-support/server.js';
import { adminOf, commitFiles, createBranch, newDeployment } from './test-fixtures.js';
import { countCube } from '../../test-support/models.js';

const BRANCHES = ['main', 'feature-a', 'feature-b', 'feature-c', 'feature-d', 'feature-e'];

/**
 * Two server processes sharing one PostgreSQL: each has its own store (pool), services and job
 * runner, as two `plinth-server`s would. Builds queued on several branches are shared between
 * them and none runs twice. PGlite is one process's store by nature, so this is PostgreSQL only.
 */
describe.skipIf(!process.env.DATABASE_URL)('two server processes on one PostgreSQL', () => {
  let first: TestServer;
  let second: Store;
  const runners: JobRunner[] = [];

  beforeAll(async () => {
    first = await startTestServer('postgres', { PLINTH_JOB_POLL_MS: '20' });
    second = await openTestStoreAgain(first.store, 5);
    const secondServices = await createServices(second, first.config);
    runners.push(first.jobs, createJobRunner({ store: second, services: secondServices, config: first.config }));
  });
  afterAll(async () => {
    await Promise.all(runners.map((r) => r.stop()));
    await second?.close();
    await first?.close();
  });

  it('build concurrently queued branches, each build exactly once, all built', async () => {
    const account = await first.newAccount();
    const deploymentId = await newDeployment(account);
    const principal = adminOf(account);
    await commitFiles(first.services, principal, deploymentId, { 'model/cubes/base.yml': countCube('base') });
    for (const name of BRANCHES.slice(1)) await createBranch(account, deploymentId, name);
    const buildIds: number[] = [];
    for (const [i, name] of BRANCHES.entries()) {
      const files = Object.fromEntries(Array.from({ length: i + 1 }, (_, n) => [`model/cubes/c${n}.yml`, countCube(`c${n}`)]));
      buildIds.push((await commitFiles(first.services, principal, deploymentId, files, name)).buildId!);
    }
    await Promise.all(runners.map((r) => r.start()));
    const db = first.store.db;
    const heads = () =>
      db.selectFrom('model_build').select(['id', 'status', 'cubes_count']).where('id', 'in', buildIds).orderBy('id').execute();
    for (let waited = 0; (await heads()).some((b) => b.status === 'queued' || b.status === 'building'); waited++) {
      if (waited > 600) throw new Error('the builds did not finish');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect((await heads()).map((b) => [b.status, b.cubes_count])).toEqual(BRANCHES.map((_, i) => ['built', i + 1]));
    const compiling = await db
      .selectFrom('build_log')
      .select(['build_id', 'pod'])
      .where('deployment_id', '=', deploymentId)
      .where('message', 'like', '%: compiling %')
      .execute();
    const runs = new Map<number, number>();
    for (const line of compiling) runs.set(Number(line.build_id), (runs.get(Number(line.build_id)) ?? 0) + 1);
    for (const id of buildIds) expect(runs.get(id)).toBe(1);
    // Every build that ran, superseded or not, ran once.
    expect([...runs.values()].every((n) => n === 1)).toBe(true);
    const pods = new Set(compiling.map((line) => line.pod));
    expect([...pods].every((pod) => runners.some((r) => r.workerId === pod))).toBe(true);
  });
});
