/** What a query answers when it is still running after the continue-wait timeout (Cube's words). */
export const CONTINUE_WAIT = Symbol('Continue wait');

/**
 * Runs queries by key (build id, normalized query, security context): identical queries in flight
 * share one execution, a finished result is reused until its TTL passes, and a caller waits at
 * most the continue-wait timeout before being told to come back. The query keeps running after
 * that, so the retry finds it in flight or cached. LocalExecutor does this per process, RedisExecutor
 * for every process sharing one Redis.
 */
export interface QueryExecutor {
  run<T>(key: string, execute: () => Promise<T>, options?: RunOptions): Promise<T | typeof CONTINUE_WAIT>;
  close(): Promise<void>;
  /**
   * The answer a plain call of `key` would be given from this process's memory right now, without
   * waiting: what the response cache (routes.ts, pipeline/response-cache.ts) checks an answer it holds against. An executor whose results live
   * elsewhere (Redis) has none to offer.
   */
  peek?(key: string): unknown;
}

export interface RunOptions {
  /**
   * Cube's `renewQuery: true` (and the `must-revalidate` and `no-cache` cache modes): the cached
   * result is not served, the query runs again and its result replaces the cached one. A renew
   * still joins an execution of the same key in flight (it is running now, so it is fresh), and is
   * satisfied by a result that finished within RENEW_WINDOW_MS: a client told `Continue wait`
   * repeats the same query, renew included, and that retry must get the execution its first call
   * started rather than start another one, forever.
   */
  renew?: boolean;
}

/** How long a finished result satisfies a renew (see RunOptions.renew); kept this long even when the TTL is shorter. */
export const RENEW_WINDOW_MS = 10_000;

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
