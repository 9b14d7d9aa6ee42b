import { createHash, randomBytes } from 'node:crypto';
import { connect, createServer, type Socket } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { CONTINUE_WAIT, RedisExecutor, StoredQueryError, type QueryExecutor } from './inflight.js';

const REDIS_URL = process.env.PLINTH_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** Its own prefix per test run: parallel runs share the one Redis. */
const prefix = `plinth:dataapi:test-${randomBytes(6).toString('hex')}:`;

/** Where the executor keeps a key's result, lease and channel. */
const idOf = (key: string) => `${prefix}${createHash('sha256').update(key).digest('hex')}`;

/** A query that runs until released, counting how often it runs. */
function slowQuery<T>(value: T) {
  const counter = { executions: 0 };
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  return {
    counter,
    release: () => release(),
    execute: async () => {
      counter.executions += 1;
      await gate;
      return value;
    },
  };
}

describe('Redis-shared query executor', () => {
  const executors: QueryExecutor[] = [];
  const redis = new Redis(REDIS_URL);
  /** How many answers an executor is waiting for from another process's run. */
  const listening = (executor: QueryExecutor) => (executor as unknown as { listeners: Map<string, unknown> }).listeners.size;
  const make = (options: Partial<ConstructorParameters<typeof RedisExecutor>[0]> = {}) => {
    const executor = new RedisExecutor({ url: REDIS_URL, prefix, waitMs: 50, ttlMs: 60_000, ...options });
    executors.push(executor);
    return executor;
  };
  afterAll(async () => {
    for (const executor of executors) await executor.close();
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  it('a query in flight on one process is waited for on another; the retry there gets the result, run once', async () => {
    const [a, b] = [make(), make()];
    const query = slowQuery({ rows: [1, 2] });
    expect(await a.run('q1', query.execute)).toBe(CONTINUE_WAIT);
    expect(await b.run('q1', query.execute)).toBe(CONTINUE_WAIT);
    query.release();
    const retry = make({ waitMs: 5_000 });
    expect(await retry.run('q1', query.execute)).toEqual({ rows: [1, 2] });
    expect(await b.run('q1', query.execute)).toEqual({ rows: [1, 2] });
    expect(query.counter.executions).toBe(1);
    // Stored under a hash of the key, with the TTL.
    const [key] = await redis.keys(`${prefix}*:result`);
    expect(key).toMatch(/^plinth:dataapi:test-[0-9a-f]+:[0-9a-f]{64}:result$/);
    expect(await redis.pttl(key!)).toBeGreaterThan(0);
  });

  it('100 identical concurrent cold calls over two processes run the query exactly once', async () => {
    const [a, b] = [make({ waitMs: 10_000 }), make({ waitMs: 10_000 })];
    const query = slowQuery('answer');
    const calls = Array.from({ length: 100 }, (_, i) => (i % 2 ? a : b).run('q100', query.execute));
    // The query is released once one process runs it and the other listens for its answer.
    await vi.waitFor(() => expect([query.counter.executions, listening(a) + listening(b)]).toEqual([1, 1]), {
      timeout: 10_000,
      interval: 5,
    });
    query.release();
    expect(new Set(await Promise.all(calls))).toEqual(new Set(['answer']));
    expect(query.counter.executions).toBe(1);
  });

  it('a failed query’s error reaches the waiters and the retry, without running it again', async () => {
    const [a, b] = [make({ waitMs: 5_000 }), make({ waitMs: 5_000 })];
    let executions = 0;
    let fail: () => void = () => undefined;
    const failed = new Promise<void>((resolve) => (fail = resolve));
    const failing = async () => {
      executions += 1;
      await failed;
      throw new Error('Conversion Error: Could not convert string "x" to INT32');
    };
    const settled = Promise.allSettled([a.run('qerr', failing), b.run('qerr', failing)]);
    // It fails once one process runs it and the other waits for its outcome.
    await vi.waitFor(() => expect([executions, listening(a) + listening(b)]).toEqual([1, 1]), { timeout: 10_000, interval: 5 });
    fail();
    const results = await settled;
    for (const result of results) {
      expect(result).toMatchObject({ status: 'rejected', reason: { message: 'Conversion Error: Could not convert string "x" to INT32' } });
    }
    await expect(make().run('qerr', failing)).rejects.toBeInstanceOf(StoredQueryError);
    expect(executions).toBe(1);
  });

  it('a waiter that reads no result just before the owner finishes takes its outcome, not the lease and a second run', async () => {
    const waiter = make({ waitMs: 5_000 });
    const id = idOf('qrace');
    await redis.set(`${id}:lease`, 'other-owner', 'PX', 60_000);
    // The owner finishes between the waiter's read of the result and its attempt at the lease.
    const connection = (waiter as unknown as { redis: { get: (key: string) => Promise<string | null> } }).redis;
    const get = connection.get.bind(connection);
    let reads = 0;
    connection.get = async (key) => {
      const value = await get(key);
      if (key === `${id}:result` && ++reads === 2) {
        await redis.set(`${id}:result`, JSON.stringify({ value: 'from the owner' }), 'PX', 60_000);
        await redis.del(`${id}:lease`);
      }
      return value;
    };
    let executions = 0;
    expect(await waiter.run('qrace', async () => ++executions)).toBe('from the owner');
    expect([reads, executions]).toEqual([3, 0]);
  });

  it('an owner that dies loses its lease, and the next caller runs the query', async () => {
    const executor = make({ waitMs: 5_000, leaseMs: 300, pollMs: 50 });
    // A lease as a dead process leaves it: never renewed, no result ever published.
    const id = idOf('qdead');
    await redis.set(`${id}:lease`, 'dead-owner', 'PX', 300);
    let executions = 0;
    expect(await executor.run('qdead', async () => ++executions)).toBe(1);
    expect(executions).toBe(1);
  });

  it('with a TTL of 0 nothing is kept: a later identical call runs again', async () => {
    const executor = make({ ttlMs: 0 });
    let executions = 0;
    expect(await executor.run('qttl0', async () => ++executions)).toBe(1);
    expect(await executor.run('qttl0', async () => ++executions)).toBe(2);
  });

  it('Redis unreachable: one clear log line, and queries run per process, never hanging', async () => {
    const lines: string[] = [];
    const executor = make({ url: 'redis://user:secret@127.0.0.1:1', warn: (line) => lines.push(line) });
    let executions = 0;
    expect(await executor.run('qdown', async () => ++executions)).toBe(1);
    expect(await executor.run('qdown', async () => ++executions)).toBe(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Redis at redis:\/\/127\.0\.0\.1:1 cannot be used \(.+\); data API queries run and are cached per process/);
    expect(lines[0]).not.toContain('secret');
  });

  it('Redis lost while serving: one log line, queries run per process without hanging, and sharing resumes when it is back', async () => {
    const proxy = await redisProxy();
    const lines: string[] = [];
    const executor = make({ url: `redis://127.0.0.1:${proxy.port}`, waitMs: 5_000, warn: (line) => lines.push(line) });
    expect(await executor.run('qlost-1', async () => 'shared')).toBe('shared');
    expect(await redis.keys(`${prefix}*`)).not.toHaveLength(0);
    proxy.cut();
    let executions = 0;
    expect(await executor.run('qlost-2', async () => ++executions)).toBe(1);
    expect(await executor.run('qlost-2', async () => ++executions)).toBe(1);
    expect(lines).toEqual([expect.stringMatching(/^Redis at redis:\/\/127\.0\.0\.1:\d+ cannot be used/)]);
    proxy.restore();
    await expect.poll(() => lines.length, { timeout: 10_000 }).toBe(2);
    expect(lines[1]).toMatch(/reachable again/);
    expect(await make({ waitMs: 5_000 }).run('qlost-1', async () => 'ran again')).toBe('shared');
  });
});

/** A TCP relay to Redis that the test can cut (closing every connection and refusing new ones) and restore. */
async function redisProxy() {
  const target = new URL(REDIS_URL);
  const sockets = new Set<Socket>();
  let open = true;
  const server = createServer((client) => {
    if (!open) return client.destroy();
    const upstream = connect(Number(target.port || 6379), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => sockets.delete(socket));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  afterAll(() => {
    for (const socket of sockets) socket.destroy();
    server.close();
  });
  return {
    port,
    cut() {
      open = false;
      for (const socket of sockets) socket.destroy();
    },
    restore() {
      open = true;
    },
  };
}
