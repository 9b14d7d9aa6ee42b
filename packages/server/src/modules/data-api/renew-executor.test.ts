import { createHash, randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { CONTINUE_WAIT, LocalExecutor, RedisExecutor, type QueryExecutor } from './inflight.js';
import { RENEW_WINDOW_MS } from './query-executor.js';

const REDIS_URL = process.env.PLINTH_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** Its own prefix per test run: parallel runs share the one Redis. */
const prefix = `plinth:dataapi:test-${randomBytes(6).toString('hex')}:`;
const redis = new Redis(REDIS_URL);

/** A query that counts its executions; each execution answers its own number once its gate is opened. */
function countedQuery() {
  let executions = 0;
  let release: () => void = () => undefined;
  let gate: Promise<void> = Promise.resolve();
  return {
    get executions() {
      return executions;
    },
    hold() {
      gate = new Promise((resolve) => (release = resolve));
    },
    release: () => release(),
    execute: async () => {
      const mine = ++executions;
      await gate;
      return `answer ${mine}`;
    },
  };
}

type Make = (options?: { waitMs?: number; ttlMs?: number }) => QueryExecutor;

/** Every rule of renewQuery, on each executor: `make` gives another process's executor on the same store of results. */
const executors: Array<[string, () => { make: Make; shared: boolean }]> = [
  ['per process', () => ({ make: (o = {}) => new LocalExecutor(o.waitMs ?? 5_000, o.ttlMs ?? 60_000), shared: false })],
  [
    'through Redis',
    () => ({
      make: (o = {}) => new RedisExecutor({ url: REDIS_URL, prefix, waitMs: o.waitMs ?? 5_000, ttlMs: o.ttlMs ?? 60_000 }),
      shared: true,
    }),
  ],
];

describe.each(executors)('renewQuery on the executor (%s)', (_name, setup) => {
  const made: QueryExecutor[] = [];
  let local: LocalExecutor | undefined;
  const make: Make = (options) => {
    const { make: create, shared } = setup();
    // Per process, "another process" is the same executor: there is nothing to share between two.
    if (!shared) return (local ??= create(options) as LocalExecutor);
    const executor = create(options);
    made.push(executor);
    return executor;
  };
  const key = () => `renew-${randomBytes(4).toString('hex')}`;
  afterEach(async () => {
    vi.useRealTimers();
    for (const executor of made.splice(0)) await executor.close();
    await local?.close();
    local = undefined;
  });
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
  });

  it('a renew runs the query again although its result is cached, and its result replaces the cached one', async () => {
    const [a, b] = [make(), make()];
    const query = countedQuery();
    const k = key();
    expect(await a.run(k, query.execute)).toBe('answer 1');
    expect(await b.run(k, query.execute)).toBe('answer 1');
    expect(query.executions).toBe(1);
    // Past the renew window, so the first execution no longer counts as fresh.
    await expireRenewWindow(k, setup().shared);
    expect(await b.run(k, query.execute, { renew: true })).toBe('answer 2');
    expect(query.executions).toBe(2);
    expect(await a.run(k, query.execute)).toBe('answer 2');
    expect(await make().run(k, query.execute)).toBe('answer 2');
    expect(query.executions).toBe(2);
  });

  it('a renew joins an identical execution in flight instead of starting another', async () => {
    const [a, b] = [make({ waitMs: 30 }), make({ waitMs: 30 })];
    const query = countedQuery();
    query.hold();
    const k = key();
    expect(await a.run(k, query.execute)).toBe(CONTINUE_WAIT);
    expect(await b.run(k, query.execute, { renew: true })).toBe(CONTINUE_WAIT);
    expect(await a.run(k, query.execute, { renew: true })).toBe(CONTINUE_WAIT);
    query.release();
    expect(await make().run(k, query.execute, { renew: true })).toBe('answer 1');
    expect(query.executions).toBe(1);
  });

  it('the Continue wait retries of a renew get the execution its first call started, on any process, and start no other', async () => {
    const [a, b] = [make({ waitMs: 30 }), make({ waitMs: 30 })];
    const query = countedQuery();
    const k = key();
    // A cached result from before: the renew must not be answered with it. Its first call may outlast the
    // 30 ms wait on a busy machine, so it is retried as a client would until it answers.
    let first: unknown = CONTINUE_WAIT;
    for (let retry = 0; retry < 200 && first === CONTINUE_WAIT; retry += 1) first = await a.run(k, query.execute);
    expect(first).toBe('answer 1');
    await expireRenewWindow(k, setup().shared);
    query.hold();
    expect(await a.run(k, query.execute, { renew: true })).toBe(CONTINUE_WAIT);
    for (let retry = 0; retry < 5; retry += 1) expect(await (retry % 2 ? a : b).run(k, query.execute, { renew: true })).toBe(CONTINUE_WAIT);
    query.release();
    let answer: unknown = CONTINUE_WAIT;
    for (let retry = 0; retry < 200 && answer === CONTINUE_WAIT; retry += 1) answer = await b.run(k, query.execute, { renew: true });
    expect(answer).toBe('answer 2');
    // The client's retry after the result was written: still that execution, not a new one.
    expect(await a.run(k, query.execute, { renew: true })).toBe('answer 2');
    expect(await b.run(k, query.execute, { renew: true })).toBe('answer 2');
    expect(query.executions).toBe(2);
  });

  it('with a TTL of 0 a renew’s retry still gets its execution, while a plain call runs again', async () => {
    const executor = make({ ttlMs: 0 });
    const query = countedQuery();
    const k = key();
    expect(await executor.run(k, query.execute, { renew: true })).toBe('answer 1');
    expect(await executor.run(k, query.execute, { renew: true })).toBe('answer 1');
    expect(await executor.run(k, query.execute)).toBe('answer 2');
    expect(query.executions).toBe(2);
  });

  it('a plain call is answered from the cache while a renew of the same query is still running', async () => {
    const executor = make({ waitMs: 30 });
    const query = countedQuery();
    const k = key();
    expect(await executor.run(k, query.execute)).toBe('answer 1');
    await expireRenewWindow(k, setup().shared);
    query.hold();
    expect(await executor.run(k, query.execute, { renew: true })).toBe(CONTINUE_WAIT);
    expect(await executor.run(k, query.execute)).toBe('answer 1');
    query.release();
    await expect.poll(() => executor.run(k, query.execute)).toBe('answer 2');
    expect(query.executions).toBe(2);
  });

  /**
   * Makes the key's last result older than the renew window without waiting for it: Redis drops
   * the `:fresh` mark (as its PX would), the per-process executor is moved on in time by faking Date.
   */
  async function expireRenewWindow(k: string, shared: boolean) {
    if (shared) {
      await redis.del(`${prefix}${createHash('sha256').update(k).digest('hex')}:fresh`);
    } else {
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + RENEW_WINDOW_MS + 1 });
    }
  }
});

afterAll(() => redis.disconnect());
