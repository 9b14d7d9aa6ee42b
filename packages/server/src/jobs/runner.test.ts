import { Type } from '@sinclair/typebox';
import { expect, it } from 'vitest';
import { describeOnStores, type TestServer } from '../test-support/server.js';
import { defineJob } from './define.js';
import type { JobKind } from './kind.js';
import type { QueueConcurrency, QueueName } from './queues.js';
import { JobRunner } from './runner.js';
import { JobQueue } from '../store/jobs.js';
import { transaction } from '../store/transaction.js';

let n = 0;

type TestKind = Omit<JobKind, 'queue'> & { queue?: QueueName };
type RunnerTestOptions = { stopGraceMs?: number; pollMs?: number; queues?: QueueName[]; concurrency?: Partial<QueueConcurrency> };

/** A runner of the given kinds (on the maintenance queue unless they say) on the test server's store, with a clock the test moves. */
function runnerOf(server: TestServer, kinds: TestKind[], options: RunnerTestOptions = {}) {
  const runner = new JobRunner({
    kinds: kinds.map((kind) => ({ queue: 'maintenance', ...kind })),
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

  it('each queue runs at most its concurrency at once, and a runner runs only the queues it was given', async () => {
    const [built, delivered] = [`test.r${++n}`, `test.r${++n}`];
    let running = 0;
    let most = 0;
    const kind = (name: string, queue: QueueName): TestKind => ({
      kind: name,
      queue,
      async handle() {
        most = Math.max(most, ++running);
        // Yields to the other handlers claimed in the same batch before finishing.
        await new Promise((resolve) => setImmediate(resolve));
        running--;
      },
    });
    const kinds = [kind(built, 'builds'), kind(delivered, 'delivery')];
    const { runner: buildsOnly } = runnerOf(server(), kinds, { queues: ['builds'], concurrency: { builds: 2 } });
    for (let i = 0; i < 5; i++) await buildsOnly.queue.enqueue({ kind: built });
    await buildsOnly.queue.enqueue({ kind: delivered });
    expect(await buildsOnly.runUntilIdle()).toBe(5);
    expect(most).toBe(2);
    expect((await jobsOf(server(), delivered)).map((r) => r.state)).toEqual(['queued']);
    const { runner: every } = runnerOf(server(), kinds);
    expect([...every.queues.keys()]).toEqual(['builds', 'rollups', 'rendering', 'delivery', 'imports', 'maintenance']);
    expect(await every.runUntilIdle()).toBe(1);
  });

  it('a job whose payload does not fit its kind is dead at once with a message naming the fault, and its handler never runs', async () => {
    let calls = 0;
    const typed = defineJob({
      kind: `test.r${++n}`,
      queue: 'maintenance',
      payload: Type.Object({ buildId: Type.Integer() }),
      maxAttempts: 5,
      handler: async (job) => (calls++, job.payload.buildId),
    });
    const { runner, now } = runnerOf(server(), [typed]);
    // Due by the runner's frozen clock: the real one has moved on since it was frozen.
    const good = await typed.enqueue(server().store.db, { buildId: 7 }, { runAt: new Date(now()) });
    const bad = await runner.queue.enqueue({ kind: typed.kind, payload: { buildId: 'seven' }, maxAttempts: 5 });
    await runner.runUntilIdle();
    expect(calls).toBe(1);
    expect(await typed.find(server().store.db, good.id)).toMatchObject({ state: 'succeeded', result: 7 });
    expect(await typed.find(server().store.db, bad.id)).toMatchObject({
      state: 'dead',
      attempts: 1,
      last_error: `the payload does not fit job kind "${typed.kind}" (/buildId: Expected integer); the job was not run`,
    });
  });

  it('a typed kind enqueues in the transaction open around it: rolled back, the job is gone too', async () => {
    const typed = defineJob({ kind: `test.r${++n}`, queue: 'maintenance', payload: Type.Object({}), handler: async () => 'ran' });
    const { runner } = runnerOf(server(), [typed]);
    let id = 0;
    await expect(
      transaction(server().store.db, async (db) => {
        id = (await typed.enqueue(db, {})).id;
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await typed.find(server().store.db, id)).toBeUndefined();
    expect(await runner.runUntilIdle()).toBe(0);
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
          queue: 'maintenance',
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
