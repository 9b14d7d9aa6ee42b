/** What a query answers when it is still running after the continue-wait timeout (Cube's words). */
export const CONTINUE_WAIT = Symbol('Continue wait');

/**
 * Runs queries by key (build id, normalized query, security context): identical queries in flight
 * share one execution, a finished result is reused until its TTL passes, and a caller waits at
 * most the continue-wait timeout before being told to come back. The query keeps running after
 * that, so the retry finds it in flight or cached. LocalRunner does this per process, RedisRunner
 * for every process sharing one Redis.
 */
export interface QueryRunner {
  run<T>(key: string, execute: () => Promise<T>): Promise<T | typeof CONTINUE_WAIT>;
  close(): Promise<void>;
}

/** How long a failed query's error is kept: waiters and the retry get the same 400 instead of running it again. */
export const ERROR_TTL_MS = 10_000;

/** Resolves with `running`'s outcome, or CONTINUE_WAIT once `waitMs` has passed. */
export async function waitAtMost<T>(running: Promise<T>, waitMs: number): Promise<T | typeof CONTINUE_WAIT> {
  let timer: NodeJS.Timeout | undefined;
  const wait = new Promise<typeof CONTINUE_WAIT>((resolve) => {
    timer = setTimeout(() => resolve(CONTINUE_WAIT), waitMs);
  });
  try {
    return await Promise.race([running, wait]);
  } finally {
    clearTimeout(timer);
  }
}

/** A failed query as waiters see it: only the message crosses processes, and the service answers it as a 400. */
export class StoredQueryError extends Error {}
