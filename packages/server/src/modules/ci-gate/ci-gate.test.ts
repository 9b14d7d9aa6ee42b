import { describe, expect, it } from 'vitest';
import { authorizationSuite } from '../../test-support/authorization.js';
import { describeOnStores } from '../../test-support/server.js';
import { cases } from './authorization.cases.js';
import { LEASE_SECONDS } from './lease.js';
import { gateOf, later } from './test-helpers.js';

const LAPSED = (LEASE_SECONDS + 5) * 1000;

describeOnStores('CI gate runs (4.8 rule 8)', (server) => {
  it('a run holds a lease that heartbeats extend; finishing hands the lease to the next run', async () => {
    const account = await server().newAccount();
    const gate = await gateOf(server(), account);
    const started = await gate.start({ ref: 'feature/x' });
    expect(started.status, started.text).toBe(201);
    expect(started.body).toMatchObject({ deploymentId: gate.deploymentId, ref: 'feature/x', state: 'active', leaseSeconds: LEASE_SECONDS });
    const beat = await gate.heartbeat(started.body.runId);
    expect(beat.status, beat.text).toBe(200);
    expect(Date.parse(beat.body.leaseUntil)).toBeGreaterThanOrEqual(Date.parse(started.body.leaseUntil));
    const finished = await gate.finish(started.body.runId, 'passed');
    expect(finished.body).toMatchObject({ runId: started.body.runId, state: 'passed' });
    expect((await gate.finish(started.body.runId, 'passed')).status).toBe(200);
    expect((await gate.finish(started.body.runId, 'failed')).body.error).toMatch(/has already ended \(passed\)/);
    expect((await gate.heartbeat(started.body.runId)).status).toBe(409);
    expect((await gate.start({ ref: 'feature/x', waitSeconds: 0 })).status).toBe(201);
  });

  it('a second run of the same deployment and credential waits its turn; another credential does not wait', async () => {
    const account = await server().newAccount();
    const gate = await gateOf(server(), account);
    const first = await gate.start({ ref: 'a' });
    const second = gate.start({ ref: 'b', waitSeconds: 30 });
    // Another credential (the admin's login) has its own dev mode, so its own lease.
    const login = `Bearer ${await account.accessToken(account.admin)}`;
    expect((await gate.start({ ref: 'c', waitSeconds: 0 }, login)).status).toBe(201);
    const finished = await gate.finish(first.body.runId, 'failed');
    expect(finished.status).toBe(200);
    const turn = await second;
    expect(turn.status, turn.text).toBe(201);
    expect(turn.body.ref).toBe('b');
  });

  it('the wait is bounded: after waitSeconds a 409 names the run holding the lease', async () => {
    const account = await server().newAccount();
    const gate = await gateOf(server(), account);
    const first = await gate.start({ ref: 'holder' });
    for (const waitSeconds of [0, 1]) {
      const refused = await gate.start({ ref: 'waiting', waitSeconds });
      expect(refused.status).toBe(409);
      expect(refused.body.error).toContain(`CI run ${first.body.runId} (ref "holder"`);
      expect(refused.body.error).toContain(`waited ${waitSeconds} s for its turn`);
    }
    // The holder was never disturbed by the runs that waited.
    expect((await gate.heartbeat(first.body.runId)).body.state).toBe('active');
  });

  it('bad input is a 400 naming it; unknown deployments and other users’ runs are 404', async () => {
    const account = await server().newAccount();
    const gate = await gateOf(server(), account);
    const unknown = await gate.start({ ref: 'x', cancel: true });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toContain('cancel');
    expect((await gate.start({ ref: '' })).status).toBe(400);
    expect((await gate.start({ ref: '   ' })).body.error).toMatch(/ref is empty/);
    expect((await gate.start({ ref: 'x', waitSeconds: 601 })).status).toBe(400);
    expect((await gate.start({})).body.error).toContain('ref');
    const run = await gate.start({ ref: 'x' });
    expect((await gate.finish(run.body.runId, 'maybe')).status).toBe(400);
    const other = await account.addUser('admin');
    const foreign = await gate.heartbeat(run.body.runId, other);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe(`CI run ${run.body.runId} of deployment ${gate.deploymentId} not found`);
    expect((await gate.finish(run.body.runId, 'passed', other)).status).toBe(404);
    const missing = await account.request({
      method: 'POST',
      url: '/build/api/v1/deployments/999999/ci-runs',
      as: account.admin,
      body: { ref: 'x' },
    });
    expect(missing.status).toBe(404);
  });

  it('a run whose lease lapses (killed runner) has its credential taken out of dev mode by the job', async () => {
    const account = await server().newAccount();
    const gate = await gateOf(server(), account);
    const run = await gate.start({ ref: 'x' });
    await gate.enterDevMode();
    // Not yet due: the check waits for the lease's end.
    await server().jobs.runUntilIdle();
    expect((await gate.devMode()).active).toBe(true);
    await later(server(), LAPSED, () => server().jobs.runUntilIdle());
    expect((await gate.devMode()).active).toBe(false);
    const late = await gate.heartbeat(run.body.runId);
    expect(late.status).toBe(409);
    expect(late.body.error).toMatch(/has ended \(lapsed\)/);
    expect((await gate.start({ ref: 'y', waitSeconds: 0 })).status).toBe(201);
  });

  it('heartbeats keep a run alive past its first lease: the check re-queues itself at the new end', async () => {
    const account = await server().newAccount();
    const gate = await gateOf(server(), account);
    const run = await gate.start({ ref: 'x' });
    await gate.enterDevMode();
    const half = (LEASE_SECONDS * 1000) / 2;
    await later(server(), half, () => gate.heartbeat(run.body.runId));
    // The first check comes due, finds the lease extended, and leaves dev mode alone.
    await later(server(), LEASE_SECONDS * 1000 + 1000, () => server().jobs.runUntilIdle());
    expect((await gate.devMode()).active).toBe(true);
    expect((await gate.heartbeat(run.body.runId)).body.state).toBe('active');
    await later(server(), half + LAPSED, () => server().jobs.runUntilIdle());
    expect((await gate.devMode()).active).toBe(false);
  });

  it('a lapsed run is taken over by the next run, whose dev mode its late check never touches', async () => {
    const account = await server().newAccount();
    const gate = await gateOf(server(), account);
    const stale = await gate.start({ ref: 'old' });
    await gate.enterDevMode();
    await later(server(), LAPSED, async () => {
      const next = await gate.start({ ref: 'new', waitSeconds: 0 });
      expect(next.status, next.text).toBe(201);
      // Taking over exited the stale run's dev mode before the new run opened its own.
      expect((await gate.devMode()).active).toBe(false);
      const branch = await gate.enterDevMode();
      await server().jobs.runUntilIdle();
      expect(await gate.devMode()).toMatchObject({ active: true, branchName: branch });
      expect((await gate.heartbeat(stale.body.runId)).status).toBe(409);
    });
  });

  describe('authorisation', () => {
    authorizationSuite(server, cases);
  });
});
