import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { threadId } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { TaskFailedError, WorkerPool, WorkerPoolError } from './pool.js';
import { workerTask } from './task.js';
import type * as tasks from './test-tasks.js';
import { BUILT } from '../test-support/built.js';

const task = <K extends keyof typeof tasks>(exportName: K, timeoutMs?: number) =>
  workerTask<(typeof tasks)[K]>({
    name: `test.${exportName}`,
    moduleUrl: import.meta.url,
    script: 'test-tasks',
    exportName,
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
  });

const echo = task('echo');
const fail = task('fail');
const exit = task('exit');
const throwLater = task('throwLater');
const unclonable = task('unclonable');
const meet = task('meet');
const block = task('block');

const pools: WorkerPool[] = [];
/** The test tasks never ship, so their threads run the sources. */
const poolOf = (size: number, idleMs?: number) => {
  const pool = new WorkerPool({ size, source: 'sources', ...(idleMs !== undefined ? { idleMs } : {}) });
  pools.push(pool);
  return pool;
};
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close()));
});

const until = async (condition: () => boolean) => {
  for (let i = 0; i < 1000 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(condition()).toBe(true);
};

/** Memory a `block` task and the test share: whether it started, and the release. */
function blocker() {
  const shared = new SharedArrayBuffer(8);
  const flags = new Int32Array(shared);
  return {
    shared,
    started: () => until(() => Atomics.load(flags, 0) === 1),
    release: () => {
      Atomics.store(flags, 1, 1);
      Atomics.notify(flags, 1);
    },
  };
}

describe('the worker pool', () => {
  it('runs a task off the event loop and answers its output, on one warm thread for calls that come in turn', async () => {
    const pool = poolOf(2);
    const first = await pool.run(echo, { a: [1, 2] });
    expect(first.input).toEqual({ a: [1, 2] });
    expect(first.threadId).not.toBe(threadId);
    expect((await pool.run(echo, 'again')).threadId).toBe(first.threadId);
    expect(pool.threadCount).toBe(1);
  });

  it('runs as many calls side by side as it has threads', async () => {
    const pool = poolOf(3);
    const shared = new SharedArrayBuffer(4);
    expect(await Promise.all([1, 2, 3].map(() => pool.run(meet, { shared, parties: 3 })))).toEqual([true, true, true]);
    expect(pool.threadCount).toBe(3);
  });

  it('makes calls past its size wait their turn, in order, and starts them once resized', async () => {
    const pool = poolOf(1);
    const held = blocker();
    const running = pool.run(block, held.shared);
    await held.started();
    const shared = new SharedArrayBuffer(4);
    // Two that can only finish together: with one thread busy, neither has started.
    const pair = [pool.run(meet, { shared, parties: 2 }), pool.run(meet, { shared, parties: 2 })];
    pool.resize(3);
    expect(await Promise.all(pair)).toEqual([true, true]);
    held.release();
    expect(await running).toBe('released');
  });

  it("fails a call with its task's own error, and the thread serves the next call", async () => {
    const pool = poolOf(1);
    const before = await pool.run(echo, null);
    const error = await pool.run(fail, 'the model is bad').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TaskFailedError);
    expect(error).toMatchObject({ task: 'test.fail', message: 'the model is bad' });
    expect((await pool.run(echo, null)).threadId).toBe(before.threadId);
  });

  it.each([
    ['exits', exit, 3, /^The worker thread running "test.exit" stopped \(exit code 3\)$/],
    ['throws where nothing catches it', throwLater, 'boom', /^The worker thread running "test.throwLater" failed: boom$/],
  ] as const)(
    'fails the call of a thread that %s, replaces the thread, and runs the calls waiting behind it',
    async (_, crash, input, message) => {
      const pool = poolOf(1);
      const before = await pool.run(echo, null);
      const crashed = pool.run(crash as typeof exit, input as number);
      const waiting = pool.run(echo, 'next');
      await expect(crashed).rejects.toThrow(message);
      await expect(crashed).rejects.toBeInstanceOf(WorkerPoolError);
      const after = await waiting;
      expect(after.input).toBe('next');
      expect(after.threadId).not.toBe(before.threadId);
    },
  );

  it('ends a thread that overruns the timeout, fails its call, and serves the next on another', async () => {
    const pool = poolOf(1);
    const held = blocker();
    await expect(pool.run(block, held.shared, { timeoutMs: 50 })).rejects.toThrow('"test.block" took longer than 0.05 s and was stopped');
    expect((await pool.run(echo, 'after')).input).toBe('after');
  });

  it('refuses an input or an answer that cannot cross to or from a thread, and stays usable', async () => {
    const pool = poolOf(1);
    await expect(pool.run(echo, () => {})).rejects.toThrow(/The input of "test.echo" cannot be sent to a worker thread/);
    await expect(pool.run(unclonable, undefined)).rejects.toThrow(/its answer cannot be sent back/);
    expect((await pool.run(echo, 1)).input).toBe(1);
  });

  it('ends threads left idle, and starts one again for the next call', async () => {
    const pool = poolOf(2, 20);
    await pool.run(echo, null);
    await until(() => pool.threadCount === 0);
    expect((await pool.run(echo, 'back')).input).toBe('back');
  });

  it('on close fails the calls still waiting and those running, ends every thread, and refuses later calls', async () => {
    const pool = poolOf(1);
    const held = blocker();
    const running = pool.run(block, held.shared).catch((error: unknown) => error);
    await held.started();
    const waiting = pool.run(echo, null).catch((error: unknown) => error);
    await pool.close();
    expect(await running).toEqual(new WorkerPoolError('The worker pool closed before "test.block" finished'));
    expect(await waiting).toEqual(new WorkerPoolError('The worker pool closed before "test.echo" started'));
    expect(pool.threadCount).toBe(0);
    await expect(pool.run(echo, null)).rejects.toThrow('The worker pool is closed: "test.echo" was not run');
  });

  it('on close lets a running call finish within the grace period', async () => {
    const pool = poolOf(1);
    const held = blocker();
    const running = pool.run(block, held.shared);
    await held.started();
    const closed = pool.close(60_000);
    held.release();
    await closed;
    expect(await running).toBe('released');
    expect(pool.threadCount).toBe(0);
  });

  it('refuses two tasks under one name, and a size below one', () => {
    const pool = poolOf(1);
    void pool.run(echo, null).catch(() => undefined);
    const impostor = workerTask<typeof tasks.fail>({
      name: 'test.echo',
      moduleUrl: import.meta.url,
      script: 'test-tasks',
      exportName: 'fail',
    });
    expect(() => pool.run(impostor, 'x')).toThrow('Two worker tasks are named "test.echo"');
    expect(() => new WorkerPool({ size: 0 })).toThrow('A worker pool needs at least one thread, not 0');
    expect(() => workerTask({ name: 'echo', moduleUrl: import.meta.url, script: 'test-tasks', exportName: 'echo' })).toThrow(
      /<module>.<task>/,
    );
  });
});

it('never keeps a process alive: one that ran a task ends with the thread still up and nothing else to do', async () => {
  // The built pool and a shipped task, in a process of its own; its thread would stay an hour if it held the process.
  const script = `(async () => {
    const { WorkerPool } = await import(${JSON.stringify(BUILT.serverModule('workers/pool.js'))});
    const { compileTask } = await import(${JSON.stringify(BUILT.serverModule('modules/builds/compiler.js'))});
    const pool = new WorkerPool({ size: 1, idleMs: 3_600_000, source: 'built' });
    const summary = await pool.run(compileTask, []);
    console.log(JSON.stringify({ cubes: summary.cubesCount, threads: pool.threadCount }));
  })()`;
  const { stdout } = await promisify(execFile)(process.execPath, ['-e', script]);
  expect(JSON.parse(stdout)).toEqual({ cubes: 0, threads: 1 });
});
