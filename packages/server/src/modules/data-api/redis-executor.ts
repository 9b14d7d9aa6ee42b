import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';
import { keepRenewed, type Lease } from '../../lease/lease.js';
import { RedisLeases } from '../../lease/redis.js';
import { LocalExecutor } from './local-executor.js';
import {
  CONTINUE_WAIT,
  ERROR_TTL_MS,
  RENEW_WINDOW_MS,
  StoredQueryError,
  waitAtMost,
  type QueryExecutor,
  type RunOptions,
} from './query-executor.js';

export interface RedisExecutorOptions {
  url: string;
  /** Start of every key and channel (`plinth:dataapi:`), so installations or test runs sharing one Redis stay apart. */
  prefix: string;
  waitMs: number;
  ttlMs: number;
  /** How long an owner's claim lasts unless renewed: an owner that dies is replaced after at most this. */
  leaseMs?: number;
  /** How often a waiter looks at Redis itself, in case a completion message is lost. */
  pollMs?: number;
  warn?: (message: string) => void;
}

/** A finished query as every process sees it: the answer, or the message of its error. */
type Outcome = { value: unknown } | { error: string };

/** `:fresh` when the answer itself is in `:result`, which outlives it. */
const FRESH_MARK = '1';

/**
 * The executor shared by every process on one Redis (PLINTH_REDIS_URL). Under `<prefix><sha256 of key>`:
 * `:result` holds the answer for the TTL (an error for ERROR_TTL_MS), `:fresh` says for
 * RENEW_WINDOW_MS after it was written that it may satisfy a renew (holding the answer itself when
 * the TTL is shorter than that), `:lease` names the process
 * running the query (SET NX PX, renewed by a heartbeat), `:done` is the channel its outcome is
 * published on. A caller on any process either finds the result, takes the lease and runs the
 * query, or waits for the owner (pub/sub, and polling in case a message is lost); a lease that
 * lapses without a result means the owner died, and the next waiter runs the query. When Redis
 * cannot be reached, queries run per process (LocalExecutor) and one line says so.
 */
export class RedisExecutor implements QueryExecutor {
  private readonly redis: Redis;
  private readonly subscriber: Redis;
  /** `:lease` keys: which process runs a query (lease/redis.ts). */
  private readonly leases: RedisLeases;
  private readonly local: LocalExecutor;
  /** The outcome this process waits for, per key: one Redis conversation however many callers. */
  private readonly pending = new Map<string, Promise<Outcome>>();
  private readonly listeners = new Map<string, (outcome: Outcome) => void>();
  private readonly firstReady: Promise<void>;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly warn: (message: string) => void;
  private down = false;
  private closed = false;

  constructor(private readonly options: RedisExecutorOptions) {
    this.leaseMs = options.leaseMs ?? 15_000;
    this.pollMs = options.pollMs ?? 250;
    this.warn = options.warn ?? ((message) => process.stderr.write(`plinth-server: ${message}\n`));
    this.local = new LocalExecutor(options.waitMs, options.ttlMs);
    // Bounded everything: a Redis that stops answering costs a request at most a couple of seconds, never a hang.
    const settings = {
      connectTimeout: 2000,
      commandTimeout: 2000,
      maxRetriesPerRequest: 1,
      retryStrategy: (n: number) => Math.min(n * 200, 2000),
    };
    // Required here, not imported: only a server with PLINTH_REDIS_URL needs ioredis, and loading it costs any other some 20 MiB.
    const { Redis: Client } = createRequire(import.meta.url)('ioredis') as typeof import('ioredis');
    this.redis = new Client(options.url, settings);
    this.subscriber = new Client(options.url, settings);
    this.leases = new RedisLeases(this.redis);
    // Settled by the first connection's success or failure: only the first queries wait for it.
    this.firstReady = new Promise((resolve) => {
      this.redis.once('ready', () => resolve());
      this.redis.once('error', () => resolve());
    });
    for (const connection of [this.redis, this.subscriber]) connection.on('error', (error: Error) => this.markDown(error));
    this.redis.on('ready', () => {
      if (this.down) this.warn(`Redis at ${this.where()} is reachable again; data API results are shared again`);
      this.down = false;
    });
    this.subscriber.on('message', (channel: string, message: string) => {
      const outcome = decode(message);
      if (outcome) this.listeners.get(channel)?.(outcome);
    });
  }

  async run<T>(key: string, execute: () => Promise<T>, options: RunOptions = {}): Promise<T | typeof CONTINUE_WAIT> {
    if (!(await this.ready())) return this.local.run(key, execute, options);
    const renew = options.renew === true;
    const id = this.options.prefix + createHash('sha256').update(key).digest('hex');
    // A renew never joins a plain call's conversation, which may end at the (older) stored result.
    const pendingKey = renew ? `${id}:renew` : id;
    let outcome = this.pending.get(pendingKey);
    if (!outcome) {
      outcome = this.settle(key, id, execute, renew).finally(() => this.pending.delete(pendingKey));
      this.pending.set(pendingKey, outcome);
    }
    const answer = await waitAtMost(outcome, this.options.waitMs);
    if (answer === CONTINUE_WAIT) return CONTINUE_WAIT;
    if ('error' in answer) throw new StoredQueryError(answer.error);
    return answer.value as T;
  }

  /**
   * The query's outcome: stored, run here under the lease, or awaited from the owner. A plain call
   * takes the stored result; a renew takes only one written within RENEW_WINDOW_MS, and otherwise
   * runs the query or waits for the process running it (see RunOptions.renew).
   */
  private async settle(key: string, id: string, execute: () => Promise<unknown>, renew: boolean): Promise<Outcome> {
    try {
      const stored = await this.stored(id, renew);
      if (stored) return stored;
      const claimed = await this.claimUnlessFinished(id, renew);
      if (claimed && isLease(claimed)) return await this.own(claimed, id, execute);
      return claimed ?? (await this.waitForOwner(key, id, execute, renew));
    } catch (error) {
      this.markDown(error);
      return this.runLocally(key, execute, renew);
    }
  }

  /** What a caller may be given without running the query: the result, or for a renew only a fresh one. */
  private async stored(id: string, renew: boolean): Promise<Outcome | null> {
    if (!renew) return decode(await this.redis.get(`${id}:result`));
    const [fresh, result] = await this.redis.mget(`${id}:fresh`, `${id}:result`);
    return decode(fresh === FRESH_MARK ? (result ?? null) : (fresh ?? null));
  }

  /** Redis failed mid-way: run (or join) the query per process, where the next call while Redis is down finds it. */
  private runLocally(key: string, execute: () => Promise<unknown>, renew: boolean): Promise<Outcome> {
    // The caller's own continue-wait applies in run(); here the outcome itself is awaited.
    return outcomeOf(() => this.local.run(key, execute, { renew }, 2 ** 31 - 1));
  }

  /**
   * Takes the lease, or finds the outcome of an owner that finished and released it since
   * `stored` was last read, or null while another process holds the lease. Without the second
   * read, a caller that read nothing just before the owner finished would run the query again.
   */
  private async claimUnlessFinished(id: string, renew: boolean): Promise<Lease | Outcome | null> {
    const lease = await this.leases.acquire(`${id}:lease`, this.leaseMs);
    if (!lease) return null;
    const finished = await this.stored(id, renew);
    if (!finished) return lease;
    await this.leases.release(lease);
    return finished;
  }

  /** Runs the query while renewing the lease, then stores and publishes the outcome and releases the lease at once. */
  private async own(lease: Lease, id: string, execute: () => Promise<unknown>): Promise<Outcome> {
    const stopRenewing = keepRenewed(this.leases, lease, this.leaseMs);
    let outcome: Outcome;
    try {
      outcome = await outcomeOf(execute);
    } finally {
      stopRenewing();
    }
    const encoded = JSON.stringify(outcome);
    const ttl = 'error' in outcome ? ERROR_TTL_MS : this.options.ttlMs;
    const multi = this.redis.multi();
    if (ttl > 0) multi.set(`${id}:result`, encoded, 'PX', ttl);
    // A renew's retries find this for RENEW_WINDOW_MS: a mark when `:result` outlives the window, else the outcome itself.
    multi.set(`${id}:fresh`, ttl >= RENEW_WINDOW_MS ? FRESH_MARK : encoded, 'PX', RENEW_WINDOW_MS);
    this.leases.releaseIn(multi.publish(`${id}:done`, encoded), lease);
    // The answer is this process's to give even if Redis fails now; others will find the lease lapsed and run it.
    await multi.exec().catch((error: unknown) => this.markDown(error));
    return outcome;
  }

  /** Waits for the owner's message, looking at Redis every pollMs; takes over when the lease lapses without a result. */
  private waitForOwner(key: string, id: string, execute: () => Promise<unknown>, renew: boolean): Promise<Outcome> {
    const channel = `${id}:done`;
    return new Promise<Outcome>((resolve) => {
      let finished = false;
      let checking = false;
      const finish = (outcome: Outcome | Promise<Outcome>) => {
        if (finished) return;
        finished = true;
        clearInterval(poll);
        this.unlisten(channel);
        resolve(outcome);
      };
      const check = async () => {
        if (finished || checking) return;
        // Closed (the server stops): waiters are answered, nothing is run any more.
        if (this.closed) return finish({ error: 'The data API is shutting down' });
        checking = true;
        try {
          const stored = await this.stored(id, renew);
          const claimed = stored ?? (await this.claimUnlessFinished(id, renew));
          if (claimed && isLease(claimed)) finish(this.own(claimed, id, execute));
          else if (claimed) finish(claimed);
        } catch (error) {
          this.markDown(error);
          finish(this.runLocally(key, execute, renew));
        } finally {
          checking = false;
        }
      };
      const poll = setInterval(() => void check(), this.pollMs);
      poll.unref();
      // Checked once subscribed: an outcome published before the subscription is then found stored.
      this.listeners.set(channel, finish);
      this.subscriber.subscribe(channel).then(check, () => undefined);
    });
  }

  private unlisten(channel: string): void {
    this.listeners.delete(channel);
    this.subscriber.unsubscribe(channel).catch(() => undefined);
  }

  /** Whether Redis is usable now; the first call waits briefly for the first connection. */
  private async ready(): Promise<boolean> {
    if (this.redis.status === 'ready') return true;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.firstReady, new Promise((resolve) => (timer = setTimeout(resolve, 1000)))]);
    clearTimeout(timer);
    // Read again: the wait above may have changed it.
    if ((this.redis.status as string) === 'ready') return true;
    this.markDown(new Error(`connection is ${this.redis.status}`));
    return false;
  }

  private markDown(error: unknown): void {
    if (this.down || this.closed) return;
    this.down = true;
    const reason = error instanceof Error ? error.message : String(error);
    this.warn(`Redis at ${this.where()} cannot be used (${reason}); data API queries run and are cached per process until it is back`);
  }

  /** The Redis address without its credentials, for log lines. */
  private where(): string {
    const url = new URL(this.options.url);
    return `${url.protocol}//${url.host}`;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listeners.clear();
    this.pending.clear();
    this.redis.disconnect();
    this.subscriber.disconnect();
    await this.local.close();
  }
}

function isLease(claimed: Lease | Outcome): claimed is Lease {
  return 'token' in claimed;
}

function outcomeOf(execute: () => Promise<unknown>): Promise<Outcome> {
  return execute().then(
    (value) => ({ value }),
    (error: unknown) => ({ error: error instanceof Error ? error.message : String(error) }),
  );
}

function decode(stored: string | null): Outcome | null {
  if (stored === null) return null;
  try {
    const outcome = JSON.parse(stored) as Outcome;
    return typeof outcome === 'object' && outcome !== null && ('value' in outcome || 'error' in outcome) ? outcome : null;
  } catch {
    return null;
  }
}
