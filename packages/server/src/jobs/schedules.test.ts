import { Type } from '@sinclair/typebox';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../store/store.js';
import { describeOnStores, type TestServer } from '../test-support/server.js';
import { openTestStoreAgain } from '../test-support/stores.js';
import { defineJob } from './define.js';
import { JobRunner } from './runner.js';
import { cronSchedule, nextCronRun, rowSchedule, type Schedule } from './schedules.js';

const at = (iso: string) => new Date(iso).getTime();
let n = 0;

describe('cron slots', () => {
  it.each([
    ['*/5 * * * *', 'UTC', '2030-01-01T00:01:00Z', '2030-01-01T00:05:00Z'],
    ['*/5 * * * *', 'UTC', '2030-01-01T00:05:00Z', '2030-01-01T00:10:00Z'],
    ['0 9 * * *', 'America/New_York', '2030-01-15T00:00:00Z', '2030-01-15T14:00:00Z'],
    ['0 9 * * *', 'America/New_York', '2030-07-15T00:00:00Z', '2030-07-15T13:00:00Z'],
    ['30 2 * * *', 'Europe/Paris', '2030-06-01T12:00:00Z', '2030-06-02T00:30:00Z'],
  ])('%s in %s after %s is %s', (cron, zone, after, next) => {
    expect(nextCronRun(cron, zone, new Date(after))).toEqual(new Date(next));
  });

  it.each([
    ['every hour', 'UTC', /schedule "bad": "every hour" in UTC is not usable: .*five, six, or seven/],
    ['0 * * * *', 'Mars/Olympus', /schedule "bad": "0 \* \* \* \*" in Mars\/Olympus is not usable: .*Invalid timezone/],
  ])('%j in %s is refused when declared, naming the schedule', (cron, timezone, message) => {
    const job = defineJob({ kind: 'test.never', queue: 'maintenance', payload: Type.Object({}), handler: async () => undefined });
    expect(() => cronSchedule({ name: 'bad', cron, timezone, job, payload: () => ({}) })).toThrow(message);
  });
});

/**
 * Two runners as two processes would have them: on PostgreSQL each on its own pool of the same
 * database, on PGlite both on the one store a process has. One clock, moved by the test.
 */
describeOnStores('schedules: claimed from the store, once per slot', (server) => {
  let other: Store | undefined;
  beforeAll(async () => {
    other = server().store.kind === 'postgres' ? await openTestStoreAgain(server().store, 5) : undefined;
  });
  afterAll(async () => {
    await other?.close();
  });

  function runners(schedules: Schedule[], kinds: ReturnType<typeof defineJob>[], clock: { now: number }) {
    const make = (store: Store) => {
      const runner = new JobRunner({ kinds, schedules, env: { ...env(server()), store }, pollMs: 60_000 });
      runner.queue.now = () => clock.now;
      return runner;
    };
    return [make(server().store), make(other ?? server().store)] as const;
  }
  const env = (s: TestServer) => ({ store: s.store, services: s.services, config: s.config });
  const tickAll = async (list: readonly JobRunner[]) => (await Promise.all(list.map((r) => r.scheduler.tick()))).reduce((a, b) => a + b);
  const runAll = async (list: readonly JobRunner[]) => (await Promise.all(list.map((r) => r.runUntilIdle()))).reduce((a, b) => a + b);

  it('a cron slot runs once across runners ticking at once; slots missed while all were down run once; a restart keeps its next run', async () => {
    const slots: string[] = [];
    const job = defineJob({
      kind: `test.cron${++n}`,
      queue: 'maintenance',
      payload: Type.Object({ slot: Type.String() }),
      handler: async (j) => slots.push(j.payload.slot),
    });
    const schedule = (cron: string) =>
      cronSchedule({ name: job.kind, cron, timezone: 'UTC', job, payload: (slot) => ({ slot: slot.toISOString() }) });
    const clock = { now: at('2030-01-01T00:01:00Z') };
    const pair = runners([schedule('*/5 * * * *')], [job], clock);
    expect(await tickAll(pair)).toBe(0);
    const nextRun = async () =>
      (await server().store.db.selectFrom('job_schedule').select('next_run_at').where('name', '=', job.kind).executeTakeFirstOrThrow())
        .next_run_at;
    expect(await nextRun()).toEqual(new Date('2030-01-01T00:05:00Z'));

    clock.now = at('2030-01-01T00:05:00Z');
    expect(await tickAll(pair)).toBe(1);
    expect(await tickAll(pair)).toBe(0);
    expect(await runAll(pair)).toBe(1);
    expect(slots).toEqual(['2030-01-01T00:05:00.000Z']);

    // Every process down from 00:06 to 01:03: eleven slots passed, one run, the earliest slot's.
    clock.now = at('2030-01-01T01:03:00Z');
    const restarted = runners([schedule('*/5 * * * *')], [job], clock);
    expect(await tickAll(restarted)).toBe(1);
    expect(await runAll(restarted)).toBe(1);
    expect(slots).toEqual(['2030-01-01T00:05:00.000Z', '2030-01-01T00:10:00.000Z']);
    expect(await nextRun()).toEqual(new Date('2030-01-01T01:05:00Z'));

    // Started again with the same declaration, it keeps its next run; with another, it starts over.
    expect(await tickAll(runners([schedule('*/5 * * * *')], [job], clock))).toBe(0);
    expect(await nextRun()).toEqual(new Date('2030-01-01T01:05:00Z'));
    expect(await tickAll(runners([schedule('0 * * * *')], [job], clock))).toBe(0);
    expect(await nextRun()).toEqual(new Date('2030-01-01T02:00:00Z'));
  });

  it('a per-row schedule runs each due row once across runners, and once per row after a downtime however many slots it missed', async () => {
    const table = `test_reminder_${++n}`;
    await sql`create table ${sql.table(table)} (id integer primary key, cron text not null, next_run_at timestamptz not null)`.execute(
      server().store.db,
    );
    const ran: string[] = [];
    const job = defineJob({
      kind: `test.rows${n}`,
      queue: 'delivery',
      payload: Type.Object({ id: Type.Integer(), cron: Type.String() }),
      handler: async (j) => ran.push(`${j.payload.id}`),
    });
    type Row = { id: number; cron: string; next_run_at: Date };
    const reminders = rowSchedule({
      name: job.kind,
      job,
      async due(db, now, limit) {
        const { rows } = await sql<Row>`select id, cron, next_run_at from ${sql.table(table)}
          where next_run_at <= ${now} order by next_run_at, id limit ${limit} for update skip locked`.execute(db);
        return rows.map((r) => ({ key: String(r.id), dueAt: new Date(r.next_run_at), payload: { id: r.id, cron: r.cron } }));
      },
      async advance(db, row, now) {
        const next = nextCronRun(row.payload.cron, 'UTC', now);
        await sql`update ${sql.table(table)} set next_run_at = ${next} where id = ${row.payload.id}`.execute(db);
      },
    });
    await sql`insert into ${sql.table(table)} values
      (1, '*/5 * * * *', '2030-01-01T00:05:00Z'), (2, '0 * * * *', '2030-01-01T00:00:00Z'), (3, '0 12 * * *', '2030-01-01T12:00:00Z')`.execute(
      server().store.db,
    );
    const clock = { now: at('2030-01-01T00:05:00Z') };
    const pair = runners([reminders], [job], clock);
    expect(await tickAll(pair)).toBe(2);
    expect(await tickAll(pair)).toBe(0);
    expect(await runAll(pair)).toBe(2);
    expect(ran.sort()).toEqual(['1', '2']);

    clock.now = at('2030-01-01T13:00:00Z');
    expect(await tickAll(pair)).toBe(3);
    expect(await runAll(pair)).toBe(3);
    expect(ran.sort()).toEqual(['1', '1', '2', '2', '3']);
    const rows = await sql<Row>`select id, next_run_at from ${sql.table(table)} order by id`.execute(server().store.db);
    expect(rows.rows.map((r) => new Date(r.next_run_at).toISOString())).toEqual([
      '2030-01-01T13:05:00.000Z',
      '2030-01-01T14:00:00.000Z',
      '2030-01-02T12:00:00.000Z',
    ]);
  });
});
