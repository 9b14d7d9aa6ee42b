import { expect, it } from 'vitest';
import { describeOnStores, type TestServer } from '../test-support/server.js';
import type { JobKind } from './kind.js';
import { JobRunner, SCHEDULE_KEY } from './runner.js';
import { JobQueue } from '../store/jobs.js';

let n = 0;

/** A runner of the given kinds on the test server's store, with a clock the test moves. */
function runnerOf(server: TestServer, kinds: JobKind[], options: { stopGraceMs?: number; pollMs?: number } = {}) {
  const runner = new JobRunner({
    kinds,
    env: { store: server.store, services: server.services, config: server.config },
    pollMs: options.pollMs ?? 60_000,
    ...options,
  });
  let now = Date.now();
  runner.queue.now = () => now;
  return { runner, advance: (ms: number) => (now += ms), now: () => now };
}

const jobsOf = (server: TestServer, kind: string) =>
  server.store.db.selectFrom('job').selectAll().where('kind', '=', kind).orderBy('id').execute();

describeOnStores('jobs: the runner (issue 11, section 2)', (server) => {
  it('runUntilIdle runs every due job, including ones enqueued while it runs, and leaves future ones', async () => {
    const kind = `test.r${++n}`;
    const seen: number[] = [];
    const { runner, now } = runnerOf(server(), [
      {
        kind,
        async handle(job) {
          const payload = job.payload as { n: number };
          seen.push(payload.n);
          if (payload.n === 1) await runner.queue.enqueue({ kind, payload: { n: 3 } });
          return { doubled: payload.n * 2 };
        },
      },
    ]);
    await runner.queue.enqueue({ kind, payload: { n: 1 } });
    await runner.queue.enqueue({ kind, payload: { n: 2 } });
    await runner.queue.enqueue({ kind, payload: { n: 9 }, runAt: new Date(now() + 60_000) });
    expect(await runner.runUntilIdle()).toBe(3);
    expect(seen.sort()).toEqual([1, 2, 3]);
    const rows = await jobsOf(server(), kind);
    expect(rows.map((r) => [r.state, r.result])).toEqual([
      ['succeeded', { doubled: 2 }],
      ['succeeded', { doubled: 4 }],
      ['queued', null],
      ['succeeded', { doubled: 6 }],
    ]);
  });

  it('a handler may query and write the store while it works: no transaction is held around it (PGlite has one session)', async () => {
    const kind = `test.r${++n}`;
    const account = await server().newAccount();
    const { runner } = runnerOf(server(), [
      {
        kind,
        async handle(job, { store, services, heartbeat }) {
          const users = await services.users.list(job.accountId!, {});
          await heartbeat();
          await store.db.transaction().execute(async (trx) => {
            await trx
              .updateTable('job')
              .set({ payload: JSON.stringify({ seen: users.items.length }) })
              .where('id', '=', job.id)
              .execute();
          });
          return (await store.db.selectFrom('job').select('payload').where('id', '=', job.id).executeTakeFirstOrThrow()).payload;
        },
      },
    ]);
    await runner.queue.enqueue({ kind, accountId: account.id });
    expect(await runner.runUntilIdle()).toBe(1);
    expect((await jobsOf(server(), kind))[0]).toMatchObject({ state: 'succeeded', result: { seen: 2 } });
  });

  it('a failing handler is retried after its backoff, then dead with its last error', async () => {
    const kind = `test.r${++n}`;
    let calls = 0;
    const { runner, advance } = runnerOf(server(), [
      {
        kind,
        maxAttempts: 3,
        backoff: (attempt) => attempt * 10_000,
        async handle() {
          calls++;
          throw new Error(`failure ${calls}`);
        },
      },
    ]);
    await runner.queue.enqueue({ kind, maxAttempts: 3 });
    await runner.runUntilIdle();
    expect((await jobsOf(server(), kind))[0]).toMatchObject({
      state: 'queued',
      attempts: 1,
      last_error: expect.stringContaining('failure 1'),
    });
    advance(9_999);
    expect(await runner.runUntilIdle()).toBe(0);
    advance(1);
    await runner.runUntilIdle();
    advance(20_000);
    await runner.runUntilIdle();
    expect(calls).toBe(3);
    expect((await jobsOf(server(), kind))[0]).toMatchObject({
      state: 'dead',
      attempts: 3,
      last_error: expect.stringContaining('failure 3'),
    });
    advance(3_600_000);
    expect(await runner.runUntilIdle()).toBe(0);
  });

  it('a running job that is cancelled sees it through its signal at the next heartbeat and ends cancelled', async () => {
    const kind = `test.r${++n}`;
    let aborted: unknown;
    const { runner } = runnerOf(server(), [
      {
        kind,
        async handle(job, { signal, heartbeat }) {
          await runner.queue.cancel(job.id);
          expect(signal.aborted).toBe(false);
          try {
            await heartbeat();
          } finally {
            aborted = signal.reason;
          }
          return 'not reached';
        },
      },
    ]);
    await runner.queue.enqueue({ kind });
    await runner.runUntilIdle();
    expect(aborted).toMatchObject({ reason: 'cancelled' });
    expect((await jobsOf(server(), kind))[0]).toMatchObject({ state: 'cancelled', attempts: 1 });
  });

  it('a periodic kind runs once per period, its next run enqueued once whoever asks', async () => {
    const kind = `test.r${++n}`;
    let runs = 0;
    const periodic: JobKind = { kind, schedule: { everyMs: 60_000 }, handle: async () => ++runs };
    const { runner, advance, now } = runnerOf(server(), [periodic]);
    const second = runnerOf(server(), [periodic]).runner;
    second.queue.now = runner.queue.now;
    await runner.ensureScheduled();
    await second.ensureScheduled();
    await Promise.all([runner.runUntilIdle(), second.runUntilIdle()]);
    expect(runs).toBe(1);
    await runner.ensureScheduled();
    expect(await runner.runUntilIdle()).toBe(0);
    let rows = await jobsOf(server(), kind);
    expect(rows.map((r) => [r.state, r.dedupe_key])).toEqual([
      ['succeeded', SCHEDULE_KEY],
      ['queued', SCHEDULE_KEY],
    ]);
    expect(rows[1]!.run_at).toEqual(new Date(now() + 60_000));
    advance(60_000);
    await Promise.all([runner.runUntilIdle(), second.runUntilIdle()]);
    expect(runs).toBe(2);
    rows = await jobsOf(server(), kind);
    expect(rows.filter((r) => r.state === 'queued')).toHaveLength(1);
  });

  it('a periodic chain whose run was lost with its worker is started again', async () => {
    const kind = `test.r${++n}`;
    const periodic: JobKind = { kind, schedule: { everyMs: 60_000 }, maxAttempts: 1, leaseMs: 1_000, handle: async () => 'ran' };
    const { runner, advance } = runnerOf(server(), [periodic]);
    await runner.ensureScheduled();
    // A worker claims the run and dies: out of attempts, the run is buried, and no next one exists.
    await runner.queue.claim('dead-worker', { leaseMs: { [kind]: 1_000 }, limit: 1 });
    advance(2_000);
    expect(await runner.runUntilIdle()).toBe(0);
    expect((await jobsOf(server(), kind)).map((r) => r.state)).toEqual(['dead']);
    await runner.ensureScheduled();
    expect(await runner.runUntilIdle()).toBe(1);
    expect((await jobsOf(server(), kind)).map((r) => [r.state, r.result])).toEqual([
      ['dead', null],
      ['succeeded', 'ran'],
      ['queued', null],
    ]);
  });

  it('the polling loop runs due jobs; stop() waits for handlers, then aborts the rest and gives their jobs back', async () => {
    const kind = `test.r${++n}`;
    const done: string[] = [];
    let started!: () => void;
    const slowStarted = new Promise<void>((resolve) => (started = resolve));
    const { runner } = runnerOf(
      server(),
      [
        {
          kind,
          async handle(job, { signal }) {
            const { name } = job.payload as { name: string };
            if (name === 'slow') {
              started();
              await new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
            }
            done.push(name);
          },
        },
      ],
      { pollMs: 10, stopGraceMs: 50 },
    );
    const quick = await runner.queue.enqueue({ kind, payload: { name: 'quick' } });
    const slow = await runner.queue.enqueue({ kind, payload: { name: 'slow' } });
    await runner.start();
    await slowStarted;
    await runner.stop();
    expect(done).toEqual(['quick']);
    expect(await runner.queue.find(quick.id)).toMatchObject({ state: 'succeeded' });
    expect(await runner.queue.find(slow.id)).toMatchObject({ state: 'queued', attempts: 0, claimed_by: null });
  });

  it('a job queued by any process wakes an idle runner: it runs without waiting for the next poll', async () => {
    const kind = `test.r${++n}`;
    let ran!: (name: string) => void;
    const handled = new Promise<string>((resolve) => (ran = resolve));
    const { runner } = runnerOf(server(), [{ kind, handle: async (job) => ran((job.payload as { name: string }).name) }]);
    await runner.start(); // polls once now, then not for a minute
    try {
      const elsewhere = new JobQueue(server().store.db);
      elsewhere.now = runner.queue.now; // one clock, as two processes share one
      await elsewhere.enqueue({ kind, payload: { name: 'woken' } });
      expect(await handled).toBe('woken');
    } finally {
      await runner.stop();
    }
  });

  it('while a handler works, the polling loop extends its lease for it', async () => {
    const kind = `test.r${++n}`;
    let extended = false;
    const runner = new JobRunner({
      kinds: [
        {
          kind,
          // The heartbeat comes past a third of the lease: a short lease makes it come at once.
          leaseMs: 300,
          async handle(job, { store }) {
            const leaseOf = async () =>
              (await store.db.selectFrom('job').select('lease_until').where('id', '=', job.id).executeTakeFirstOrThrow()).lease_until!;
            const first = (await leaseOf()).getTime();
            // Waits for the runner's heartbeat (bounded, not timed): the test fails if it never comes.
            for (let i = 0; i < 500 && !extended; i++) {
              await new Promise((resolve) => setTimeout(resolve, 20));
              extended = (await leaseOf()).getTime() > first;
            }
          },
        },
      ],
      env: { store: server().store, services: server().services, config: server().config },
      pollMs: 10,
    });
    const { id } = await runner.queue.enqueue({ kind });
    await runner.start();
    for (let i = 0; i < 1_000 && (await runner.queue.find(id))!.state !== 'succeeded'; i++)
      await new Promise((resolve) => setTimeout(resolve, 20));
    await runner.stop();
    expect(extended).toBe(true);
    expect(await runner.queue.find(id)).toMatchObject({ state: 'succeeded', attempts: 1 });
  });

  it('a kind registered twice is refused when the runner is built', () => {
    const twice = { kind: 'test.twice', handle: async () => undefined };
    expect(() => runnerOf(server(), [twice, twice])).toThrow('job kind "test.twice" is registered twice');
  });
});
