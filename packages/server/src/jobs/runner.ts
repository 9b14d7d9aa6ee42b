import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { JOB_QUEUED_CHANNEL, JobQueue, type Job } from '../store/jobs.js';
import { payloadProblem } from './define.js';
import { DEFAULT_LEASE_MS, exponentialBackoff, type JobContext, type JobEnv, type JobKind } from './kind.js';
import { QUEUE_NAMES, QUEUES, type QueueConcurrency, type QueueName } from './queues.js';
import { Scheduler, type Schedule } from './schedules.js';

/** Where the runner reports failures; the server passes its log, tests nothing. */
export interface JobLog {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface RunnerOptions {
  kinds: readonly JobKind[];
  env: JobEnv;
  /** Cron and per-row schedules this process ticks (every process may: a slot is claimed once). */
  schedules?: readonly Schedule[];
  /** Pause between polls when there was nothing to claim (PLINTH_JOB_POLL_MS). */
  pollMs: number;
  /** The queues whose jobs this process runs; every queue unless set (`plinth-server worker --queues`). */
  queues?: readonly QueueName[];
  /** Jobs of each queue run at once by this process; the config's (PLINTH_QUEUE_CONCURRENCY) unless set. */
  concurrency?: Partial<QueueConcurrency>;
  /** How long stop() lets in-flight handlers finish before aborting them. */
  stopGraceMs?: number;
  log?: JobLog;
}

const ABORT_SETTLE_MS = 1_000;

/** Why a handler's signal was aborted; a shutdown gives the job back, anything else ends the attempt. */
export class JobAbort extends Error {
  override name = 'AbortError';
  constructor(readonly reason: 'shutdown' | 'cancelled' | 'lease lost') {
    super(
      reason === 'shutdown'
        ? 'the server is stopping'
        : reason === 'cancelled'
          ? 'the job was cancelled'
          : 'the job is no longer held by this worker',
    );
  }
}

interface InFlight {
  job: Job;
  queue: QueueName;
  controller: AbortController;
  done: Promise<void>;
  lastBeat: number;
}

/**
 * Runs the job kinds of this process's queues: claims due jobs every `pollMs` (at once again
 * while there are more), at most each queue's concurrency at a time, and heartbeats each one's
 * lease while its handler works; each poll also ticks the schedules. No transaction is open while
 * a handler works. Tests call `runUntilIdle()` and `scheduler.tick()` instead of `start()`, and
 * move `queue.now` instead of sleeping.
 */
export class JobRunner {
  readonly queue: JobQueue;
  readonly scheduler: Scheduler;
  readonly workerId = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  /** The queues this process runs, each with its kinds' leases (what a claim asks for) and its concurrency. */
  readonly queues: ReadonlyMap<QueueName, { leaseMs: Record<string, number>; concurrency: number }>;
  private readonly kinds = new Map<string, JobKind>();
  private readonly inFlight = new Map<number, InFlight>();
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private polling: Promise<void> | undefined;
  /** A job was queued while a poll ran: poll again as soon as it ends. */
  private wokenWhilePolling = false;
  private listening = false;
  private lastTick = -Infinity;
  private readonly shortestLease: number;

  constructor(private readonly options: RunnerOptions) {
    this.queue = new JobQueue(options.env.store.db);
    this.scheduler = new Scheduler(options.env.store.db, options.schedules ?? [], () => this.now());
    const runs = new Set<QueueName>(options.queues ?? QUEUE_NAMES);
    const concurrency = { ...options.env.config.queueConcurrency, ...options.concurrency };
    const queues = new Map<QueueName, { leaseMs: Record<string, number>; concurrency: number }>();
    for (const name of runs) queues.set(name, { leaseMs: {}, concurrency: concurrency[name] ?? QUEUES[name].concurrency });
    for (const kind of options.kinds) {
      if (this.kinds.has(kind.kind)) throw new Error(`job kind "${kind.kind}" is registered twice`);
      this.kinds.set(kind.kind, kind);
      const queue = queues.get(kind.queue);
      if (queue) queue.leaseMs[kind.kind] = kind.leaseMs ?? DEFAULT_LEASE_MS;
    }
    this.queues = queues;
    this.shortestLease = Math.min(Infinity, ...[...queues.values()].flatMap((q) => Object.values(q.leaseMs)));
  }

  /** The clock of the queue, the handlers and the schedules. */
  now(): number {
    return this.queue.now();
  }

  /** Starts polling; the cron schedules are recorded first, so a bad one fails the start. */
  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    if (!this.listening) {
      this.listening = true;
      await this.options.env.store.listen(JOB_QUEUED_CHANNEL, () => this.wake());
    }
    await this.scheduler.register();
    this.schedulePoll(0);
  }

  /** A job was queued somewhere (JOB_QUEUED_CHANNEL): claim now rather than at the next poll. */
  private wake(): void {
    if (!this.running) return;
    if (this.polling) {
      this.wokenWhilePolling = true;
      return;
    }
    clearTimeout(this.timer);
    this.schedulePoll(0);
  }

  /**
   * Stops claiming, waits up to the grace for in-flight handlers, then aborts the rest and gives
   * their jobs back to the queue (another process, or the next start, runs them).
   */
  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    await this.polling;
    const all = () => Promise.all([...this.inFlight.values()].map((f) => f.done));
    if (await settlesWithin(all(), this.options.stopGraceMs ?? 10_000)) return;
    for (const flight of this.inFlight.values()) flight.controller.abort(new JobAbort('shutdown'));
    await settlesWithin(all(), ABORT_SETTLE_MS);
  }

  /** Claims and runs due jobs until none is left; for tests, which never start the polling loop. */
  async runUntilIdle(): Promise<number> {
    let ran = 0;
    for (;;) {
      const queues = [...this.queues];
      const claimed = await this.queue.claimEach(
        this.workerId,
        queues.map(([, queue]) => ({ leaseMs: queue.leaseMs, limit: queue.concurrency })),
      );
      await Promise.all(claimed.flatMap((jobs, i) => jobs.map((job) => this.run(job, queues[i]![0]))));
      const count = claimed.reduce((sum, jobs) => sum + jobs.length, 0);
      if (count === 0) return ran;
      ran += count;
    }
  }

  private schedulePoll(delayMs: number): void {
    if (!this.running) return;
    this.timer = setTimeout(() => {
      this.polling = this.poll().finally(() => {
        this.polling = undefined;
      });
    }, delayMs);
  }

  private async poll(): Promise<void> {
    let claimedAll = false;
    try {
      await this.beatDue();
      if (this.running) {
        const queues = [...this.queues].map(([name, queue]) => {
          const free = queue.concurrency - [...this.inFlight.values()].filter((f) => f.queue === name).length;
          return { name, leaseMs: queue.leaseMs, limit: Math.max(0, free) };
        });
        const claimed = await this.queue.claimEach(this.workerId, queues);
        claimed.forEach((jobs, i) => {
          const { name, limit } = queues[i]!;
          for (const job of jobs) void this.run(job, name);
          if (limit > 0 && jobs.length === limit) claimedAll = true;
        });
      }
      // After the claims, so a woken poll starts its job first; once per poll period, not at every wake-up.
      if (this.running && this.now() - this.lastTick >= this.options.pollMs) {
        this.lastTick = this.now();
        await this.scheduler
          .tick()
          .catch((error: unknown) => this.options.log?.error({ err: error }, 'job runner: ticking the schedules failed'));
      }
    } catch (error) {
      this.options.log?.error({ err: error }, 'job runner: polling the queue failed');
    }
    // A full batch means more may be due: poll again soon rather than after a pause. While jobs
    // run, polls also keep their leases, so they come at least three times per shortest lease.
    const pause = this.inFlight.size > 0 ? Math.min(this.options.pollMs, this.shortestLease / 3) : this.options.pollMs;
    const again = claimedAll || this.wokenWhilePolling;
    this.wokenWhilePolling = false;
    this.schedulePoll(again ? Math.min(pause, 50) : pause);
  }

  /** Heartbeats jobs past a third of their lease, so handlers that never heartbeat keep theirs. */
  private async beatDue(): Promise<void> {
    for (const flight of this.inFlight.values()) {
      if (this.now() - flight.lastBeat >= this.leaseOf(flight) / 3) await this.beat(flight).catch(() => {});
    }
  }

  private async beat(flight: InFlight): Promise<void> {
    const beat = await this.queue.heartbeat(flight.job, this.leaseOf(flight));
    flight.lastBeat = this.now();
    if (!beat.held) flight.controller.abort(new JobAbort('lease lost'));
    else if (beat.cancelRequested) flight.controller.abort(new JobAbort('cancelled'));
  }

  private leaseOf(flight: InFlight): number {
    return this.queues.get(flight.queue)!.leaseMs[flight.job.kind]!;
  }

  private run(job: Job, queue: QueueName): Promise<void> {
    const flight: InFlight = { job, queue, controller: new AbortController(), done: Promise.resolve(), lastBeat: this.now() };
    this.inFlight.set(job.id, flight);
    flight.done = this.execute(flight).finally(() => this.inFlight.delete(job.id));
    return flight.done;
  }

  private async execute(flight: InFlight): Promise<void> {
    const { job, controller } = flight;
    const kind = this.kinds.get(job.kind)!;
    const context: JobContext = {
      ...this.options.env,
      signal: controller.signal,
      now: () => this.now(),
      workerId: this.workerId,
      heartbeat: async () => {
        controller.signal.throwIfAborted();
        await this.beat(flight);
        controller.signal.throwIfAborted();
      },
    };
    const problem = payloadProblem(kind, job.payload);
    if (problem) {
      await this.queue.deadLetter(job, problem).catch(() => undefined);
      this.options.log?.error({ jobId: job.id, kind: job.kind, problem }, 'job runner: job is dead, its payload does not fit its kind');
      return;
    }
    let result: unknown;
    try {
      result = await kind.handle(job, context);
    } catch (error) {
      await this.failed(job, kind, error, controller.signal);
      return;
    }
    try {
      await this.queue.complete(job, result);
    } catch (error) {
      this.options.log?.error({ err: error, jobId: job.id, kind: job.kind }, 'job runner: recording a finished job failed');
    }
  }

  private async failed(job: Job, kind: JobKind, error: unknown, signal: AbortSignal): Promise<void> {
    try {
      if (signal.reason instanceof JobAbort && signal.reason.reason === 'shutdown' && (await this.queue.release(job))) return;
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
      const backoff = (kind.backoff ?? exponentialBackoff)(job.attempt);
      const state = await this.queue.fail(job, message, backoff);
      if (state === 'dead')
        this.options.log?.error({ jobId: job.id, kind: job.kind, err: error }, 'job runner: job is dead, out of attempts');
      else if (state === 'queued')
        this.options.log?.warn({ jobId: job.id, kind: job.kind, err: error }, 'job runner: job failed, retrying');
    } catch (recordError) {
      this.options.log?.error({ err: recordError, jobId: job.id, kind: job.kind }, 'job runner: recording a failed job failed');
    }
  }
}

async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
