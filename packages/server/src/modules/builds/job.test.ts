import { expect, it } from 'vitest';
import { describeOnStores, type TestServer } from '../../test-support/server.js';
import { BUILD_JOB, BUILD_LEASE_MS, BUILD_MAX_ATTEMPTS } from './job.js';
import { adminOf, commitFiles, newDeployment } from './test-fixtures.js';
import { countCube } from '../../test-support/models.js';

/** A process that claims the build's job and dies: it never heartbeats or finishes. */
const dieHolding = (server: TestServer, worker: string) =>
  server.jobs.queue.claim(worker, { leaseMs: { [BUILD_JOB]: BUILD_LEASE_MS }, limit: 10 });

async function queued(server: TestServer) {
  const account = await server.newAccount();
  const deploymentId = await newDeployment(account);
  const { buildId } = await commitFiles(server.services, adminOf(account), deploymentId, { 'model/cubes/a.yml': countCube('a') });
  const status = () =>
    account.request({ method: 'GET', url: `/api/v1/deployments/${deploymentId}/builds/${buildId}`, as: account.admin }).then((r) => r.body);
  return { status };
}

describeOnStores('a process that dies mid-build', (server) => {
  it('leaves a job whose lease expires; another process builds it', async () => {
    const { status } = await queued(server());
    // The build was queued on the wall clock; the runner's starts just after it.
    const clock = { now: Date.now() + 1000 };
    server().jobs.queue.now = () => clock.now;
    expect((await dieHolding(server(), 'gone')).length).toBeGreaterThan(0);
    expect(await server().jobs.runUntilIdle()).toBe(0);
    expect((await status()).status).toBe('building');
    clock.now += BUILD_LEASE_MS + 1;
    await server().jobs.runUntilIdle();
    expect(await status()).toMatchObject({ status: 'built', cubesCount: 1 });
  });

  it(`after ${BUILD_MAX_ATTEMPTS} attempts the job is dead and the build reads failed with its error`, async () => {
    const { status } = await queued(server());
    const clock = { now: Date.now() + 3_600_000 };
    server().jobs.queue.now = () => clock.now;
    for (let attempt = 1; attempt <= BUILD_MAX_ATTEMPTS; attempt++) {
      expect((await dieHolding(server(), `gone-${attempt}`)).length).toBeGreaterThan(0);
      clock.now += BUILD_LEASE_MS + 1;
    }
    await server().jobs.runUntilIdle();
    const build = await status();
    expect(build.status).toBe('failed');
    expect(build.errors).toEqual([{ fileName: '', message: expect.stringContaining('lease expired') }]);
  });
});
