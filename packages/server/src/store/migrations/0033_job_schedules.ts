import { sql, type Kysely } from 'kysely';

/**
 * Cron schedules of background work, one row each, owned by the jobs subsystem (jobs/schedules.ts).
 * A process whose clock passed `next_run_at` claims the row (FOR UPDATE SKIP LOCKED), enqueues the
 * slot's job and moves `next_run_at` past now in one transaction, so however many processes tick,
 * a slot runs once, and slots missed while every process was down run once, not once each.
 * `cron` and `timezone` are kept to notice a changed declaration: it starts over from now.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table job_schedule (
      name text primary key,
      cron text not null,
      timezone text not null,
      next_run_at timestamptz not null,
      last_run_at timestamptz,
      created_at timestamptz not null default now()
    );
    create index job_schedule_due on job_schedule (next_run_at);
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table job_schedule`.execute(db);
}
