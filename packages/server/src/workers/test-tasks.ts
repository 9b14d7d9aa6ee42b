import { threadId } from 'node:worker_threads';

/**
 * Tasks for the pool's own tests (pool.test.ts). Test-only: they never ship, so the tests run them
 * from the sources. Waits use Atomics on memory the test shares, never the clock.
 */

/** Which thread ran it, and what it was given. */
export function echo(input: unknown): { threadId: number; input: unknown } {
  return { threadId, input };
}

/** Throws as a task's own bug would. */
export function fail(message: string): never {
  throw new Error(message);
}

/** Ends its thread as a crash in native code would. */
export function exit(code: number): void {
  process.exit(code);
}

/** Throws outside the task's own call, where nothing catches it: the thread dies of it. */
export function throwLater(message: string): Promise<void> {
  setImmediate(() => {
    throw new Error(message);
  });
  return new Promise(() => {});
}

/** Answers a function, which cannot be cloned back. */
export function unclonable(): () => void {
  return () => {};
}

/**
 * Counts itself in and waits (10 s at most) for `parties` calls to be in at once: true only if as
 * many ran side by side, which one thread running them in turn never could.
 */
export function meet({ shared, parties }: { shared: SharedArrayBuffer; parties: number }): boolean {
  const count = new Int32Array(shared);
  Atomics.add(count, 0, 1);
  Atomics.notify(count, 0);
  const until = Date.now() + 10_000;
  for (let seen = Atomics.load(count, 0); seen < parties; seen = Atomics.load(count, 0)) {
    if (Atomics.wait(count, 0, seen, until - Date.now()) === 'timed-out') return false;
  }
  return true;
}

/** Says it started (slot 0), then blocks its thread until the test releases it (slot 1). */
export function block(shared: SharedArrayBuffer): string {
  const flags = new Int32Array(shared);
  Atomics.store(flags, 0, 1);
  Atomics.notify(flags, 0);
  Atomics.wait(flags, 1, 0, 30_000);
  return 'released';
}
