import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStore, openTestStoreAgain, storeKinds } from '../test-support/stores.js';
import { JobQueue } from './jobs.js';
import type { Store } from './store.js';

describe.each(storeKinds)('store/jobs: the job queue (issue 11, section 2) [%s]', (kind) => {
  let store: Store;
  let clock: number;
  beforeAll(async () => {
    store = await openTestStore(kind);
  });
  afterAll(async () => {
    await store?.close();
  });

  /** A queue on its own kind name, so tests never claim each other's jobs; its clock moves by hand. */
  function queueOf(db = store.db) {
    const queue = new JobQueue(db);
    clock = Date.now();
    queue.now = () => clock;
    return queue;
  }
  let n = 0;
  const kindName = () => `test.k${++n}`;
  const lease = (k: string, ms = 10_000) => ({ leaseMs: { [k]: ms }, limit: 10 });

  it('a dedupe key admits one queued-or-running job per kind, and a new one once it is over', async () => {
    const queue = queueOf();
    const k = kindName();
    const first = await queue.enqueue({ kind: k, dedupeKey: 'acct-1', payload: { n: 1 } });
    const again = await queue.enqueue({ kind: k, dedupeKey: 'acct-1', payload: { n: 2 } });
    const other = await queue.enqueue({ kind: k, dedupeKey: 'acct-2' });
    const plain = [await queue.enqueue({ kind: k }), await queue.enqueue({ kind: k })];
    expect(first.created).toBe(true);
    expect(again).toEqual({ id: first.id, created: false });
    expect(other.created).toBe(true);
    expect(plain.every((p) => p.created)).toBe(true);

    const [claimed] = (await queue.claim('w1', lease(k))).filter((j) => j.id === first.id);
    expect(claimed!.payload).toEqual({ n: 1 });
    expect(await queue.enqueue({ kind: k, dedupeKey: 'acct-1' })).toEqual({ id: first.id, created: false });
    expect(await queue.complete(claimed!, { done: true })).toBe(true);
    expect(await queue.find(first.id)).toMatchObject({ state: 'succeeded', result: { done: true } });
    expect((await queue.enqueue({ kind: k, dedupeKey: 'acct-1' })).created).toBe(true);
  });

  it('concurrent enqueues of one dedupe key create one job', async () => {
    const queue = queueOf();
    const k = kindName();
    const results = await Promise.all(Array.from({ length: 8 }, () => queue.enqueue({ kind: k, dedupeKey: 'same' })));
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(results.map((r) => r.id)).size).toBe(1);
  });

  it('only due jobs of the asked kinds are claimed, oldest first, and each counts an attempt', async () => {
    const queue = queueOf();
    const [k, other] = [kindName(), kindName()];
    const later = await queue.enqueue({ kind: k, runAt: new Date(clock + 60_000) });
    const second = await queue.enqueue({ kind: k, runAt: new Date(clock - 1_000) });
    const first = await queue.enqueue({ kind: k, runAt: new Date(clock - 2_000) });
    await queue.enqueue({ kind: other });
    const claimed = await queue.claim('w1', lease(k, 120_000));
    expect(claimed.map((j) => j.id)).toEqual([first.id, second.id]);
    expect(claimed[0]).toMatchObject({ attempt: 1, claimedBy: 'w1#1', leaseUntil: new Date(clock + 120_000) });
    clock += 60_000;
    expect((await queue.claim('w1', lease(k, 120_000))).map((j) => j.id)).toEqual([later.id]);
  });

  it('two workers claiming at once never get the same job (SKIP LOCKED)', async () => {
    const k = kindName();
    // On PostgreSQL a second handle on the same schema: two processes' pools racing for rows.
    const other = kind === 'postgres' ? await openTestStoreAgain(store, 5) : store;
    try {
      const [a, b] = [queueOf(), queueOf(other.db)];
      for (let i = 0; i < 40; i++) await a.enqueue({ kind: k });
      const claims = await Promise.all(
        Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).claim(`w${i}`, { leaseMs: { [k]: 10_000 }, limit: 5 })),
      );
      const ids = claims.flat().map((j) => j.id);
      expect(new Set(ids).size).toBe(ids.length);
      const rest = await a.claim('late', { leaseMs: { [k]: 10_000 }, limit: 100 });
      expect(ids.length + rest.length).toBe(40);
    } finally {
      if (other !== store) await other.close();
    }
  });

  it('claimEach takes each set of kinds up to its own limit, in one pass, oldest first within each', async () => {
    const queue = queueOf();
    const [a, b, idle] = [kindName(), kindName(), kindName()];
    const as = [];
    for (let i = 0; i < 3; i++) as.push(await queue.enqueue({ kind: a, runAt: new Date(clock - 3_000 + i) }));
    const bs = [await queue.enqueue({ kind: b }), await queue.enqueue({ kind: b })];
    const [ofA, ofB, ofIdle, none] = await queue.claimEach('w1', [
      { leaseMs: { [a]: 5_000 }, limit: 2 },
      { leaseMs: { [b]: 60_000 }, limit: 5 },
      { leaseMs: { [idle]: 5_000 }, limit: 5 },
      { leaseMs: {}, limit: 5 },
    ]);
    expect(ofA!.map((j) => j.id)).toEqual([as[0]!.id, as[1]!.id]);
    expect(ofB!.map((j) => j.id).sort()).toEqual(bs.map((j) => j.id).sort());
    expect([ofIdle, none]).toEqual([[], []]);
    // Each kind's lease is its own, though one statement claimed them all.
    expect(ofA![0]!.leaseUntil.getTime()).toBe(clock + 5_000);
    expect(ofB![0]!.leaseUntil.getTime()).toBe(clock + 60_000);
    expect((await queue.claimEach('w2', [{ leaseMs: { [a]: 5_000 }, limit: 5 }]))[0]!.map((j) => j.id)).toEqual([as[2]!.id]);
  });

  it('a job whose lease expired is claimed again as another attempt; the old holder is refused', async () => {
    const queue = queueOf();
    const k = kindName();
    await queue.enqueue({ kind: k, maxAttempts: 3 });
    const [held] = await queue.claim('dead-worker', lease(k, 5_000));
    clock += 4_000;
    expect(await queue.claim('w2', lease(k, 5_000))).toEqual([]);
    clock += 2_000;
    const [again] = await queue.claim('w2', lease(k, 5_000));
    expect(again).toMatchObject({ id: held!.id, attempt: 2, claimedBy: 'w2#2' });
    expect(await queue.heartbeat(held!, 5_000)).toEqual({ held: false, cancelRequested: false });
    expect(await queue.complete(held!)).toBe(false);
    // The same worker id claiming again after a lapse is a new holder too.
    clock += 6_000;
    const [third] = await queue.claim('w2', lease(k, 5_000));
    expect(third!.attempt).toBe(3);
    expect(await queue.complete(again!)).toBe(false);
    expect(await queue.complete(third!)).toBe(true);
  });

  it('a job out of attempts whose lease expires is dead, not run again', async () => {
    const queue = queueOf();
    const k = kindName();
    const { id } = await queue.enqueue({ kind: k, maxAttempts: 1 });
    await queue.claim('dead-worker', lease(k, 1_000));
    clock += 2_000;
    expect(await queue.claim('w2', lease(k, 1_000))).toEqual([]);
    expect(await queue.find(id)).toMatchObject({ state: 'dead', attempts: 1, last_error: expect.stringContaining('lease expired') });
  });

  it('a heartbeat extends the lease of its holder only', async () => {
    const queue = queueOf();
    const k = kindName();
    await queue.enqueue({ kind: k });
    const [job] = await queue.claim('w1', lease(k, 5_000));
    expect(await queue.heartbeat({ ...job!, claimedBy: 'intruder' }, 60_000)).toEqual({ held: false, cancelRequested: false });
    expect((await queue.find(job!.id))!.lease_until).toEqual(new Date(clock + 5_000));
    clock += 4_000;
    expect(await queue.heartbeat(job!, 5_000)).toEqual({ held: true, cancelRequested: false });
    clock += 4_000;
    expect(await queue.claim('w2', lease(k, 5_000))).toEqual([]);
  });

  it('a failure is retried after its backoff until the attempts run out, then the job is dead with its error', async () => {
    const queue = queueOf();
    const k = kindName();
    const { id } = await queue.enqueue({ kind: k, maxAttempts: 2 });
    const [first] = await queue.claim('w1', lease(k));
    expect(await queue.fail(first!, 'boom 1', 30_000)).toBe('queued');
    expect(await queue.find(id)).toMatchObject({
      state: 'queued',
      run_at: new Date(clock + 30_000),
      last_error: 'boom 1',
      claimed_by: null,
    });
    clock += 29_000;
    expect(await queue.claim('w1', lease(k))).toEqual([]);
    clock += 1_000;
    const [second] = await queue.claim('w1', lease(k));
    expect(second!.attempt).toBe(2);
    expect(await queue.fail(second!, 'boom 2', 30_000)).toBe('dead');
    expect(await queue.find(id)).toMatchObject({ state: 'dead', attempts: 2, last_error: 'boom 2', finished_at: new Date(clock) });
    clock += 60_000;
    expect(await queue.claim('w1', lease(k))).toEqual([]);
  });

  it('cancelling a queued job ends it at once; a running one is flagged, heard at its heartbeat, and ends cancelled', async () => {
    const queue = queueOf();
    const k = kindName();
    const queued = await queue.enqueue({ kind: k, runAt: new Date(clock + 1_000) });
    const running = await queue.enqueue({ kind: k });
    const [job] = await queue.claim('w1', lease(k));
    expect(await queue.cancel(queued.id)).toBe('cancelled');
    expect(await queue.cancel(running.id)).toBe('running');
    expect(await queue.heartbeat(job!, 10_000)).toEqual({ held: true, cancelRequested: true });
    expect(await queue.fail(job!, 'aborted', 1_000)).toBe('cancelled');
    clock += 5_000;
    expect(await queue.claim('w1', lease(k))).toEqual([]);
    expect(await queue.cancel(running.id)).toBe('cancelled');
  });

  it('a flagged job whose worker died is cancelled, not claimed again', async () => {
    const queue = queueOf();
    const k = kindName();
    const { id } = await queue.enqueue({ kind: k });
    await queue.claim('dead-worker', lease(k, 1_000));
    await queue.cancel(id);
    clock += 2_000;
    expect(await queue.claim('w2', lease(k, 1_000))).toEqual([]);
    expect((await queue.find(id))!.state).toBe('cancelled');
  });

  it('a released job is queued again with its attempt given back', async () => {
    const queue = queueOf();
    const k = kindName();
    const { id } = await queue.enqueue({ kind: k, maxAttempts: 1 });
    const [job] = await queue.claim('w1', lease(k));
    expect(await queue.release(job!)).toBe(true);
    expect(await queue.find(id)).toMatchObject({ state: 'queued', attempts: 0 });
    expect((await queue.claim('w2', lease(k))).map((j) => j.attempt)).toEqual([1]);
  });
});
