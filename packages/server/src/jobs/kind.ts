import type { TSchema } from '@sinclair/typebox';
import type { Config } from '../config.js';
import type { Services } from '../services.js';
import type { Job } from '../store/jobs.js';
import type { Store } from '../store/store.js';
import type { QueueName } from './queues.js';

/** What a handler works with besides its job: the process's store, services and settings. */
export interface JobEnv {
  store: Store;
  services: Services;
  config: Config;
}

export interface JobContext extends JobEnv {
  /**
   * Aborted when the job is cancelled, when its lease was lost to another worker, or when the
   * runner stops and the handler is past its grace: the handler should give up soon after.
   */
  signal: AbortSignal;
  /**
   * Extends the lease. Long work calls it between steps; it throws the signal's reason once the
   * job was cancelled or the lease lost, so a handler that heartbeats stops there.
   */
  heartbeat(): Promise<void>;
  /** The runner's clock: tests move it instead of sleeping. */
  now(): number;
  /** The runner (process) holding the job, e.g. to say in logs which process did the work. */
  workerId: string;
}

/**
 * A kind of background work as the runner sees it. Modules make one with `defineJob` (define.ts),
 * which also gives the typed `enqueue`, and list it in `PlinthModule.jobs`.
 */
export interface JobKind<Payload = unknown> {
  /** Unique across modules, e.g. `retention.sweep`. */
  kind: string;
  /** The named queue it runs on (queues.ts): its concurrency, and which worker processes run it. */
  queue: QueueName;
  /** Checked against each claimed job's payload: a row that fails is dead at once, saying why, and never reaches the handler. */
  payload?: TSchema;
  /** Resolves with the job's result (kept on the row), or throws to fail the attempt. */
  handle(job: Job<Payload>, context: JobContext): Promise<unknown>;
  /** Tries before the job is dead; 5 unless set. */
  maxAttempts?: number;
  /** Wait before retry n (1 after the first failure); exponential from 1 s, at most 1 h, unless set. */
  backoff?: (attempt: number) => number;
  /** How long a claim holds without a heartbeat; 60 s unless set. */
  leaseMs?: number;
}

export const DEFAULT_LEASE_MS = 60_000;

export function exponentialBackoff(attempt: number, baseMs = 1000, capMs = 3_600_000): number {
  return Math.min(capMs, baseMs * 2 ** Math.min(attempt - 1, 30));
}
