/** What a query answers when it is still running after the continue-wait timeout (Cube's words). */
export const CONTINUE_WAIT = Symbol('Continue wait');

interface Cached {
  value: unknown;
  expiresAt: number;
}

/**
 * Runs queries by key (build id, normalized query, security context): identical queries in flight
 * share one execution, a finished result is reused until its TTL passes, and a caller waits at
 * most `waitMs` before being told to come back. The query keeps running after that, so the retry
 * finds it in flight or cached. Per process; Redis comes later.
 */
export class QueryRunner {
  private readonly inFlight = new Map<string, Promise<unknown>>();
  private readonly results = new Map<string, Cached>();

  constructor(
    private readonly waitMs: number,
    private readonly ttlMs: number,
  ) {}

  async run<T>(key: string, execute: () => Promise<T>): Promise<T | typeof CONTINUE_WAIT> {
    const cached = this.results.get(key);
    if (cached && cached.expiresAt > Date.now()) return cached.value as T;
    if (cached) this.results.delete(key);
    let running = this.inFlight.get(key) as Promise<T> | undefined;
    if (!running) {
      running = execute();
      this.inFlight.set(key, running);
      const started = running;
      started.then(
        (value) => {
          this.inFlight.delete(key);
          if (this.ttlMs > 0) this.results.set(key, { value, expiresAt: Date.now() + this.ttlMs });
          this.sweep();
        },
        // A failure is answered to whoever waits; one told to come back runs the query again.
        () => this.inFlight.delete(key),
      );
    }
    let timer: NodeJS.Timeout | undefined;
    const wait = new Promise<typeof CONTINUE_WAIT>((resolve) => {
      timer = setTimeout(() => resolve(CONTINUE_WAIT), this.waitMs);
    });
    try {
      return await Promise.race([running, wait]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Drops expired results, so the cache holds only what may still be served. */
  private sweep(): void {
    const now = Date.now();
    for (const [key, cached] of this.results) if (cached.expiresAt <= now) this.results.delete(key);
  }

  clear(): void {
    this.inFlight.clear();
    this.results.clear();
  }
}
