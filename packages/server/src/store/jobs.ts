import { sql, type Kysely } from 'kysely';
import type { Lease } from '../lease/lease.js';
import { StoreLeases } from '../lease/store.js';
import type { Database, JobRow, JobState } from './schema.js';

export type { JobState };

/** A claimed job, as its handler sees it. `attempt` counts this run (1 on the first). */
export interface Job<Payload = unknown> {
  id: number;
  kind: string;
  payload: Payload;
  accountId: number | null;
  dedupeKey: string | null;
  attempt: number;
  maxAttempts: number;
  runAt: Date;
  leaseUntil: Date;
  /** The token of this claim's lease: the worker's id and the attempt (`host:pid:id#2`). */
  claimedBy: string;
}

export interface EnqueueInput {
  kind: string;
  payload?: unknown;
  accountId?: number | null;
  /** At most one queued-or-running job per (kind, dedupe key): a second enqueue is a no-op. */
  dedupeKey?: string | null;
  /** Not before this moment; now when left out. */
  runAt?: Date;
  maxAttempts?: number;
}

export interface Enqueued {
  id: number;
  /** False when a queued-or-running job with the same dedupe key was already there (its id). */
  created: boolean;
}

/** Which kinds a worker claims, and for how long each kind's lease holds. */
export interface ClaimOptions {
  leaseMs: Record<string, number>;
  limit: number;
}

/** What a heartbeat learnt: whether the worker still holds the job, and whether it should stop. */
export interface Heartbeat {
  held: boolean;
  cancelRequested: boolean;
}

export const DEFAULT_MAX_ATTEMPTS = 5;
/**
 * Notified in the enqueueing transaction, so it reaches every process's runner when (and only if)
 * the job commits: an idle runner claims it at once instead of at its next poll.
 */
export const JOB_QUEUED_CHANNEL = 'plinth_job_queued';
const LEASE_EXPIRED = 'lease expired: the worker holding the job stopped heartbeating';

/**
 * The job table. Every method is one statement or one short transaction; none waits on a
 * handler, so a handler may use the store while it works, even on PGlite's single session.
 * A running job is held under a lease kept in its row (lease/store.ts): `claimed_by` is the
 * token, naming the worker and the attempt, so a worker whose lease expired and was claimed again,
 * even by the same worker id, no longer holds it. Time comes from `now`, so tests move a clock.
 */
export class JobQueue {
  now: () => number = Date.now;
  private readonly leases: StoreLeases;

  constructor(private readonly db: Kysely<Database>) {
    const columns = { table: 'job', key: 'id', token: 'claimed_by', until: 'lease_until', where: sql`state = 'running'` };
    this.leases = new StoreLeases(db, columns, () => this.now());
  }

  async enqueue(input: EnqueueInput, db: Kysely<Database> = this.db): Promise<Enqueued> {
    const runAt = input.runAt ?? new Date(this.now());
    const maxAttempts = input.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
    // ON CONFLICT DO NOTHING also covers the partial unique index: a concurrent enqueue of the
    // same dedupe key waits for the other's commit, then inserts nothing.
    const inserted = await db
      .insertInto('job')
      .values({
        kind: input.kind,
        payload: JSON.stringify(input.payload ?? {}),
        account_id: input.accountId ?? null,
        dedupe_key: input.dedupeKey ?? null,
        run_at: runAt,
        max_attempts: maxAttempts,
        last_error: null,
        lease_until: null,
        claimed_by: null,
        finished_at: null,
      })
      .onConflict((oc) => oc.doNothing())
      .returning('id')
      .executeTakeFirst();
    if (inserted) {
      if (runAt.getTime() <= this.now()) await sql`select pg_notify(${JOB_QUEUED_CHANNEL}, ${input.kind})`.execute(db);
      return { id: inserted.id, created: true };
    }
    // The other job may have finished in between; then there is nothing to point at.
    return { id: (await this.pendingId(input.kind, input.dedupeKey!, db)) ?? 0, created: false };
  }

  /**
   * Takes up to `limit` due jobs of the given kinds: queued ones whose time has come, and running
   * ones whose lease expired (their process died), which counts as an attempt. One statement, so
   * two workers racing for a job never both get it: SKIP LOCKED passes over rows another holds.
   */
  async claim(workerId: string, options: ClaimOptions): Promise<Job[]> {
    return (await this.claimEach(workerId, [options]))[0]!;
  }

  /**
   * `claim` for several sets of kinds at once, each with its own limit (a runner's queues): the
   * same two statements whatever their number, so an idle runner's poll costs two round trips,
   * not two per queue. The kinds of two sets must not overlap. Answers each set's jobs in order.
   */
  async claimEach(workerId: string, sets: readonly ClaimOptions[]): Promise<Job[][]> {
    const wanted = sets.filter((set) => set.limit > 0 && Object.keys(set.leaseMs).length > 0);
    if (wanted.length === 0) return sets.map(() => []);
    const leaseMs: Record<string, number> = Object.assign({}, ...wanted.map((set) => set.leaseMs));
    const limits = wanted.map((set) => ({ kinds: Object.keys(set.leaseMs), limit: set.limit }));
    const now = new Date(this.now());
    await this.buryAbandoned(Object.keys(leaseMs), now);
    // One lateral pick per set, each ordered and limited on its own; SKIP LOCKED works inside each.
    const { rows } = await sql<JobRow>`
      with sets as (
        select array(select jsonb_array_elements_text(s -> 'kinds')) as kinds, (s ->> 'limit')::int as max_jobs
        from jsonb_array_elements(${JSON.stringify(limits)}::jsonb) as s),
      picked as (
        select j.id from sets cross join lateral (
          select id from job
          where kind = any(sets.kinds)
            and ((state = 'queued' and run_at <= ${now})
              or (state = 'running' and lease_until < ${now} and attempts < max_attempts and not cancel_requested))
          order by run_at, id
          limit sets.max_jobs
          for update skip locked) j)
      update job set
        state = 'running',
        attempts = job.attempts + 1,
        claimed_by = ${workerId} || '#' || (job.attempts + 1),
        lease_until = ${now}::timestamptz + (${JSON.stringify(leaseMs)}::jsonb ->> job.kind)::float8 * interval '1 millisecond'
      from picked where job.id = picked.id
      returning job.*`.execute(this.db);
    const jobs = rows.map(toJob).sort((a, b) => a.runAt.getTime() - b.runAt.getTime() || a.id - b.id);
    return sets.map((set) => jobs.filter((job) => Object.hasOwn(set.leaseMs, job.kind)));
  }

  /**
   * Running jobs whose worker vanished and that may not be tried again: out of attempts they are
   * dead, flagged for cancellation they are cancelled. Claiming them again would break either.
   */
  private async buryAbandoned(kinds: string[], now: Date): Promise<void> {
    await sql`
      update job set
        state = case when cancel_requested then 'cancelled' else 'dead' end,
        last_error = case when cancel_requested then last_error else ${LEASE_EXPIRED} end,
        lease_until = null, finished_at = ${now}
      where id in (
        select id from job
        where kind = any(${kinds}::text[]) and state = 'running' and lease_until < ${now}
          and (attempts >= max_attempts or cancel_requested)
        for update skip locked)`.execute(this.db);
  }

  /** Extends the lease by `leaseMs`, for the current holder only, and says whether a cancel was asked for. */
  async heartbeat(job: Job, leaseMs: number): Promise<Heartbeat> {
    if (!(await this.leases.renew(leaseOf(job), leaseMs))) return { held: false, cancelRequested: false };
    const row = await this.db.selectFrom('job').select('cancel_requested').where('id', '=', job.id).executeTakeFirst();
    return { held: true, cancelRequested: row?.cancel_requested ?? false };
  }

  /** Records success; false when the worker no longer held the job. */
  async complete(job: Job, result?: unknown): Promise<boolean> {
    const row = await this.held(job)
      .set({
        state: 'succeeded',
        result: result === undefined ? null : JSON.stringify(result),
        lease_until: null,
        finished_at: new Date(this.now()),
      })
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Records a failed attempt: queued again after `retryInMs` while attempts remain, else dead;
   * cancelled when cancellation was asked for. The error is kept either way.
   */
  async fail(job: Job, error: string, retryInMs: number): Promise<JobState | undefined> {
    const now = this.now();
    const row = await this.held(job)
      .set({
        state: sql`case when cancel_requested then 'cancelled' when attempts >= max_attempts then 'dead' else 'queued' end`,
        run_at: sql`case when cancel_requested or attempts >= max_attempts then run_at else ${new Date(now + retryInMs)}::timestamptz end`,
        finished_at: sql`case when cancel_requested or attempts >= max_attempts then ${new Date(now)}::timestamptz end`,
        last_error: error.slice(0, 4000),
        lease_until: null,
        claimed_by: null,
      })
      .returning('state')
      .executeTakeFirst();
    return row?.state;
  }

  /**
   * Ends the job dead at once, whatever attempts remain: it can never succeed (its payload does
   * not fit its kind). The message says why. False when the worker no longer held it.
   */
  async deadLetter(job: Job, error: string): Promise<boolean> {
    const row = await this.held(job)
      .set({ state: 'dead', last_error: error.slice(0, 4000), lease_until: null, finished_at: new Date(this.now()) })
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Gives the job back untried (the worker is shutting down): queued at once, the attempt returned. */
  async release(job: Job): Promise<boolean> {
    const row = await this.held(job)
      .set({ state: 'queued', attempts: sql`attempts - 1`, run_at: new Date(this.now()), lease_until: null, claimed_by: null })
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Cancels a job: a queued one at once; a running one is flagged, its handler learns it at its
   * next heartbeat, and it ends cancelled. Answers the state it is in afterwards. With `kind`, a
   * job of another kind is left alone and reads as missing.
   */
  async cancel(id: number, kind?: string): Promise<JobState | undefined> {
    const now = new Date(this.now());
    const queued = await this.db
      .updateTable('job')
      .set({ state: 'cancelled', finished_at: now })
      .where('id', '=', id)
      .$if(kind !== undefined, (q) => q.where('kind', '=', kind!))
      .where('state', '=', 'queued')
      .returning('state')
      .executeTakeFirst();
    if (queued) return queued.state;
    const running = await this.db
      .updateTable('job')
      .set({ cancel_requested: true })
      .where('id', '=', id)
      .$if(kind !== undefined, (q) => q.where('kind', '=', kind!))
      .where('state', '=', 'running')
      .returning('state')
      .executeTakeFirst();
    if (running) return running.state;
    const row = await this.find(id);
    return row && (!kind || row.kind === kind) ? row.state : undefined;
  }

  private async pendingId(kind: string, dedupeKey: string, db: Kysely<Database> = this.db): Promise<number | undefined> {
    const row = await db
      .selectFrom('job')
      .select('id')
      .where('kind', '=', kind)
      .where('dedupe_key', '=', dedupeKey)
      .where('state', 'in', ['queued', 'running'])
      .executeTakeFirst();
    return row?.id;
  }

  find(id: number): Promise<JobRow | undefined> {
    return this.db.selectFrom('job').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** An update of the job, applied only while `job`'s lease is still held: what ends the job ends its lease too. */
  private held(job: Job, db: Kysely<Database> = this.db) {
    return db.updateTable('job').where(this.leases.heldBy(leaseOf(job)));
  }
}

function leaseOf(job: Job): Lease {
  return { key: String(job.id), token: job.claimedBy };
}

function toJob(row: JobRow): Job {
  return {
    id: row.id,
    kind: row.kind,
    payload: row.payload,
    accountId: row.account_id,
    dedupeKey: row.dedupe_key,
    attempt: row.attempts,
    maxAttempts: row.max_attempts,
    runAt: new Date(row.run_at),
    leaseUntil: new Date(row.lease_until!),
    claimedBy: row.claimed_by!,
  };
}
