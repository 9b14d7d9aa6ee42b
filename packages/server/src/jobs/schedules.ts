import { Cron } from 'croner';
import type { Executor } from '../store/executor.js';
import { transaction } from '../store/transaction.js';
import type { JobDefinition } from './define.js';

/** Work due at the slots of a cron expression in a time zone, e.g. every hour at :00 UTC. */
export interface CronSchedule<Payload = unknown> {
  type: 'cron';
  /** Unique across modules; the key of its row in `job_schedule`. */
  name: string;
  cron: string;
  timezone: string;
  job: JobDefinition<Payload>;
  /** The payload of the run of `slot` (the slot's moment; the earliest missed one after a downtime). */
  payload: (slot: Date) => Payload;
}

/** A row of a module's own table that is due: its key, when it fell due, and the payload of its run. */
export interface DueRow<Payload = unknown> {
  key: string;
  dueAt: Date;
  payload: Payload;
  /** The account the run is for, kept on its job. */
  accountId?: number | null;
}

/**
 * Work due per row of a module's table (a notification's next send, a rollup's refresh): the
 * module's table keeps each row's next run, and the module says how to find due rows and move
 * them on. Both run in the claiming transaction, so a row is claimed by one process.
 */
export interface RowSchedule<Payload = unknown> {
  type: 'rows';
  name: string;
  job: JobDefinition<Payload>;
  /**
   * Up to `limit` rows whose next run is at or before `now`, locked `FOR UPDATE SKIP LOCKED` so
   * another process claiming at once passes over them.
   */
  due(db: Executor, now: Date, limit: number): Promise<DueRow<Payload>[]>;
  /** Stores the row's next run after `now` (see `nextCronRun`), or none: once run, it is not due again for this slot. */
  advance(db: Executor, row: DueRow<Payload>, now: Date): Promise<void>;
}

export type Schedule = CronSchedule<any> | RowSchedule<any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- each schedule types its own job

/** Rows one tick claims per row schedule: the rest are claimed at the next tick, by this process or another. */
export const ROW_BATCH = 100;

/** The first slot of `cron` in `timezone` strictly after `after`; null when it has no further slot. Throws on a bad expression or zone. */
export function nextCronRun(cron: string, timezone: string, after: Date): Date | null {
  return new Cron(cron, { timezone, paused: true }).nextRun(after);
}

/**
 * The current period of a refresh key's `every`, as text that changes exactly when the period
 * passes: an interval counted from the epoch (`every:<n>`), or, for a cron expression, its next
 * slot in UTC (`cron:<iso>`), as Cube derives both. Undefined without a usable `every`.
 */
export function everyPeriod(key: { readonly everySeconds?: number; readonly every?: string }, now: number): string | undefined {
  if (key.everySeconds !== undefined) return key.everySeconds > 0 ? `every:${Math.floor(now / 1000 / key.everySeconds)}` : undefined;
  if (key.every === undefined) return undefined;
  return `cron:${nextCronRun(key.every, 'UTC', new Date(now))?.toISOString() ?? 'never'}`;
}

/** Declares a cron schedule; a bad expression or time zone fails here, when the module loads, naming the schedule. */
export function cronSchedule<Payload>(schedule: Omit<CronSchedule<Payload>, 'type'>): CronSchedule<Payload> {
  try {
    if (!nextCronRun(schedule.cron, schedule.timezone, new Date())) throw new Error('it has no future slot');
  } catch (error) {
    throw new Error(`schedule "${schedule.name}": "${schedule.cron}" in ${schedule.timezone} is not usable: ${(error as Error).message}`);
  }
  return { type: 'cron', ...schedule };
}

export function rowSchedule<Payload>(schedule: Omit<RowSchedule<Payload>, 'type'>): RowSchedule<Payload> {
  return { type: 'rows', ...schedule };
}

/**
 * Turns due schedules into jobs. Any number of processes tick at once: a slot is claimed by one
 * (row lock, SKIP LOCKED), its job enqueued with a dedupe key naming the slot, and the schedule
 * moved past now in the same transaction. Moving it past now, not to the slot after the one run,
 * is what makes slots missed while no process ran come to one run.
 */
export class Scheduler {
  private registered: Promise<void> | undefined;

  constructor(
    private readonly db: Executor,
    readonly schedules: readonly Schedule[],
    private readonly now: () => number,
  ) {
    const names = new Set<string>();
    for (const { name } of schedules) {
      if (names.has(name)) throw new Error(`schedule "${name}" is declared twice`);
      names.add(name);
    }
  }

  /**
   * Records each cron schedule, first due at its next slot. One already recorded keeps its next
   * run (a run missed while the processes were down is still due), unless its expression or time
   * zone changed: then it starts over from now.
   */
  register(): Promise<void> {
    return (this.registered ??= this.upsert().catch((error: unknown) => {
      this.registered = undefined;
      throw error;
    }));
  }

  private async upsert(): Promise<void> {
    const now = new Date(this.now());
    for (const schedule of this.schedules) {
      if (schedule.type !== 'cron') continue;
      await this.db
        .insertInto('job_schedule')
        .values({
          name: schedule.name,
          cron: schedule.cron,
          timezone: schedule.timezone,
          next_run_at: nextCronRun(schedule.cron, schedule.timezone, now)!,
        })
        .onConflict((oc) =>
          oc
            .column('name')
            .doUpdateSet((eb) => ({
              cron: eb.ref('excluded.cron'),
              timezone: eb.ref('excluded.timezone'),
              next_run_at: eb.ref('excluded.next_run_at'),
            }))
            .where((eb) =>
              eb.or([
                eb('job_schedule.cron', '<>', eb.ref('excluded.cron')),
                eb('job_schedule.timezone', '<>', eb.ref('excluded.timezone')),
              ]),
            ),
        )
        .execute();
    }
  }

  /** Enqueues the jobs of every schedule now due; answers how many. Each schedule is its own transaction. */
  async tick(): Promise<number> {
    await this.register();
    // Most ticks find nothing due: one read of every cron schedule, and one look per row schedule,
    // decide that without a transaction; only what is due pays for the claiming one.
    const dueCrons = await this.dueCronNames();
    let enqueued = 0;
    for (const schedule of this.schedules) {
      if (schedule.type === 'cron') {
        if (dueCrons.has(schedule.name)) enqueued += await this.tickCron(schedule);
      } else if ((await schedule.due(this.db, new Date(this.now()), 1)).length > 0) {
        enqueued += await this.tickRows(schedule);
      }
    }
    return enqueued;
  }

  private async dueCronNames(): Promise<Set<string>> {
    const names = this.schedules.filter((schedule) => schedule.type === 'cron').map((schedule) => schedule.name);
    if (names.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('job_schedule')
      .select('name')
      .where('name', 'in', names)
      .where('next_run_at', '<=', new Date(this.now()))
      .execute();
    return new Set(rows.map((row) => row.name));
  }

  private tickCron(schedule: CronSchedule): Promise<number> {
    const now = new Date(this.now());
    return transaction(this.db, async (db) => {
      const row = await db
        .selectFrom('job_schedule')
        .select('next_run_at')
        .where('name', '=', schedule.name)
        .where('next_run_at', '<=', now)
        .forUpdate()
        .skipLocked()
        .executeTakeFirst();
      if (!row) return 0;
      const slot = new Date(row.next_run_at);
      await schedule.job.enqueue(db, schedule.payload(slot), { dedupeKey: `${schedule.name}@${slot.toISOString()}`, runAt: now });
      // No further slot (a date long past): parked far ahead rather than run again at every tick.
      const next = nextCronRun(schedule.cron, schedule.timezone, now) ?? new Date('9999-12-31T00:00:00Z');
      await db.updateTable('job_schedule').set({ next_run_at: next, last_run_at: slot }).where('name', '=', schedule.name).execute();
      return 1;
    });
  }

  private tickRows(schedule: RowSchedule): Promise<number> {
    const now = new Date(this.now());
    return transaction(this.db, async (db) => {
      const rows = await schedule.due(db, now, ROW_BATCH);
      for (const row of rows) {
        const dedupeKey = `${schedule.name}:${row.key}@${row.dueAt.toISOString()}`;
        await schedule.job.enqueue(db, row.payload, { dedupeKey, runAt: now, accountId: row.accountId ?? null });
        await schedule.advance(db, row, now);
      }
      return rows.length;
    });
  }
}
