import type { Static, TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { Executor } from '../store/executor.js';
import { JobQueue, type Enqueued, type Job, type JobState } from '../store/jobs.js';
import type { JobRow } from '../store/schema.js';
import type { JobContext, JobKind } from './kind.js';
import type { QueueName } from './queues.js';

export interface JobOptions<S extends TSchema> {
  kind: string;
  queue: QueueName;
  /** The payload's schema: its type is the handler's and `enqueue`'s, and each claimed row is checked against it. */
  payload: S;
  handler: (job: Job<Static<S>>, context: JobContext) => Promise<unknown>;
  maxAttempts?: number;
  backoff?: (attempt: number) => number;
  leaseMs?: number;
}

export interface EnqueueOptions {
  accountId?: number | null;
  /** At most one queued-or-running job of this kind per key: a second enqueue is a no-op answering the first. */
  dedupeKey?: string | null;
  /** Not before this moment; now when left out. */
  runAt?: Date;
}

/** A job kind with the typed ways to queue, cancel and look up its jobs. */
export interface JobDefinition<Payload> extends JobKind<Payload> {
  /**
   * Queues a job. `db` is the store's handle: inside `transaction()` the job is queued in that
   * transaction (it exists, and a runner is woken, only if the transaction commits).
   */
  enqueue(db: Executor, payload: Payload, options?: EnqueueOptions): Promise<Enqueued>;
  /** Cancels a job of this kind: a queued one at once, a running one at its next heartbeat; answers its state. */
  cancel(db: Executor, id: number): Promise<JobState | undefined>;
  /** The job's row, for a status view; undefined when it is gone or of another kind. */
  find(db: Executor, id: number): Promise<JobRow | undefined>;
}

/**
 * Declares a kind of background work; the module lists it in its `jobs` and enqueues with
 * `job.enqueue(db, payload)`. The payload's type follows from its schema, so a handler and its
 * callers cannot disagree on it, and a row written by an older version that no longer fits is
 * dead-lettered with the schema's complaint instead of crashing the handler.
 */
export function defineJob<S extends TSchema>(options: JobOptions<S>): JobDefinition<Static<S>> {
  const { handler, ...kind } = options;
  return {
    ...kind,
    handle: handler,
    enqueue: (db, payload, enqueue = {}) =>
      new JobQueue(db).enqueue({
        kind: options.kind,
        payload,
        ...(options.maxAttempts === undefined ? {} : { maxAttempts: options.maxAttempts }),
        ...enqueue,
      }),
    cancel: (db, id) => new JobQueue(db).cancel(id, options.kind),
    find: async (db, id) => {
      const row = await new JobQueue(db).find(id);
      return row?.kind === options.kind ? row : undefined;
    },
  };
}

/** Why a claimed job's payload does not fit its kind's schema, or undefined when it does (or the kind has none). */
export function payloadProblem(kind: JobKind, payload: unknown): string | undefined {
  if (!kind.payload || Value.Check(kind.payload, payload)) return undefined;
  const errors = [...Value.Errors(kind.payload, payload)].slice(0, 3);
  const said = errors.map((e) => `${e.path || '/'}: ${e.message}`).join('; ');
  return `the payload does not fit job kind "${kind.kind}" (${said}); the job was not run`;
}
