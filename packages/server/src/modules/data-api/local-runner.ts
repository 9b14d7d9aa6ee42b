import { ERROR_TTL_MS, waitAtMost, type CONTINUE_WAIT, type QueryRunner } from './query-runner.js';

interface Cached {
  outcome: { value: unknown } | { error: unknown };
  expiresAt: number;
}

/**
 * The per-process runner (no PLINTH_REDIS_URL, or Redis unreachable): in-flight queries and results
 * live in this process's memory.
 */
export class LocalRunner implements QueryRunner {
  private readonly inFlight = new Map<string, Promise<unknown>>();
  private readonly results = new Map<string, Cached>();

  constructor(
    private readonly waitMs: number,
    private readonly ttlMs: number,
  ) {}

  /** `waitMs` overrides the continue-wait timeout, for a caller that has its own (RedisRunner falling back). */
  async run<T>(key: string, execute: () => Promise<T>, waitMs = this.waitMs): Promise<T | typeof CONTINUE_WAIT> {
    const cached = this.results.get(key);
    if (cached && cached.expiresAt > Date.now()) {
      if ('error' in cached.outcome) throw cached.outcome.error;
      return cached.outcome.value as T;
    }
    if (cached) this.results.delete(key);
    let running = this.inFlight.get(key) as Promise<T> | undefined;
    if (!running) {
      running = execute();
      this.inFlight.set(key, running);
      running.then(
        (value) => {
          this.inFlight.delete(key);
          if (this.ttlMs > 0) this.results.set(key, { outcome: { value }, expiresAt: Date.now() + this.ttlMs });
          this.sweep();
        },
        // Kept briefly, so one told to come back gets the same error rather than running it again.
        (error: unknown) => {
          this.inFlight.delete(key);
          this.results.set(key, { outcome: { error }, expiresAt: Date.now() + ERROR_TTL_MS });
        },
      );
    }
    return waitAtMost(running, waitMs);
  }

  /** Drops expired results, so the cache holds only what may still be served. */
  private sweep(): void {
    const now = Date.now();
    for (const [key, cached] of this.results) if (cached.expiresAt <= now) this.results.delete(key);
  }

  close(): Promise<void> {
    this.inFlight.clear();
    this.results.clear();
    return Promise.resolve();
  }
}
