import { ERROR_TTL_MS, RENEW_WINDOW_MS, waitAtMost, type CONTINUE_WAIT, type QueryExecutor, type RunOptions } from './query-executor.js';

interface Cached {
  outcome: { value: unknown } | { error: unknown };
  /** Until when any caller is served this result (the TTL, or ERROR_TTL_MS for an error). */
  expiresAt: number;
  /** Until when a renew is served it (RENEW_WINDOW_MS after it finished): the retries of the renew that ran it. */
  renewableUntil: number;
}

/**
 * The per-process executor (no PLINTH_REDIS_URL, or Redis unreachable): in-flight queries and results
 * live in this process's memory.
 */
export class LocalExecutor implements QueryExecutor {
  private readonly inFlight = new Map<string, Promise<unknown>>();
  private readonly results = new Map<string, Cached>();

  constructor(
    private readonly waitMs: number,
    private readonly ttlMs: number,
  ) {}

  /** `waitMs` overrides the continue-wait timeout, for a caller that has its own (RedisExecutor falling back). */
  async run<T>(
    key: string,
    execute: () => Promise<T>,
    { renew = false }: RunOptions = {},
    waitMs = this.waitMs,
  ): Promise<T | typeof CONTINUE_WAIT> {
    const cached = this.results.get(key);
    const now = Date.now();
    // A plain query takes a cached result over waiting for a renew in flight (Cube's stale-if-slow);
    // a renew joins the execution in flight, else takes only a result its own first call ran.
    let served = cached && !renew && cached.expiresAt > now ? cached : undefined;
    let running = served ? undefined : (this.inFlight.get(key) as Promise<T> | undefined);
    if (!served && !running && cached && renew && cached.renewableUntil > now) served = cached;
    if (served) {
      if ('error' in served.outcome) throw served.outcome.error;
      return served.outcome.value as T;
    }
    running ??= this.start(key, execute);
    return waitAtMost(running, waitMs);
  }

  peek(key: string): unknown {
    const cached = this.results.get(key);
    return cached && 'value' in cached.outcome && cached.expiresAt > Date.now() ? cached.outcome.value : undefined;
  }

  /** Runs the query as the key's one execution; its outcome replaces whatever the key held. */
  private start<T>(key: string, execute: () => Promise<T>): Promise<T> {
    const running = execute();
    this.inFlight.set(key, running);
    running.then(
      (value) => {
        this.inFlight.delete(key);
        const now = Date.now();
        // Kept for a renew's retries even when the TTL is shorter; served to others only within the TTL.
        this.results.set(key, { outcome: { value }, expiresAt: now + this.ttlMs, renewableUntil: now + RENEW_WINDOW_MS });
        this.sweep(now);
      },
      // Kept briefly, so one told to come back gets the same error rather than running it again.
      (error: unknown) => {
        this.inFlight.delete(key);
        const now = Date.now();
        this.results.set(key, { outcome: { error }, expiresAt: now + ERROR_TTL_MS, renewableUntil: now + ERROR_TTL_MS });
      },
    );
    return running;
  }

  /** Drops results nobody may be served any more, so the cache holds only what may still be. */
  private sweep(now: number): void {
    for (const [key, cached] of this.results) {
      if (cached.expiresAt <= now && cached.renewableUntil <= now) this.results.delete(key);
    }
  }

  close(): Promise<void> {
    this.inFlight.clear();
    this.results.clear();
    return Promise.resolve();
  }
}
