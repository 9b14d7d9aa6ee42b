import { sql, type Kysely } from 'kysely';

/**
 * CI gate runs (section 4.8 rule 8): a run holds the lease of one (deployment, credential) pair,
 * since dev mode is per credential and two gates of one credential would step on each other's
 * session. The partial unique index lets at most one run per pair be active, whichever server
 * process starts it; a run whose lease lapses is marked `lapsed` by the job that exits its dev mode.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table ci_run (
      id integer generated always as identity primary key,
      account_id integer not null references account(id) on delete cascade,
      deployment_id integer not null references deployment(id) on delete cascade,
      credential_key text not null,
      owner jsonb not null,
      ref text not null,
      state text not null default 'active' check (state in ('active', 'passed', 'failed', 'lapsed')),
      lease_until timestamptz not null,
      created_at timestamptz not null default now(),
      finished_at timestamptz
    );
    create unique index ci_run_one_active on ci_run (deployment_id, credential_key) where state = 'active';
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table ci_run`.execute(db);
}
