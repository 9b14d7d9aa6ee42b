import { sql, type Kysely } from 'kysely';

/**
 * Issue 15, dbt sync. `dbt_integration`: one per deployment, the Git repository holding its dbt
 * project, the project's folder in it and the branch a sync takes by default. `dbt_sync`: one row
 * per sync job, updated as each stage starts and ends so its status shows live progress; `state`
 * is the job's own part (it ends `written` once the generated branch and its build are committed),
 * the rest of the result is read from that build. Syncs outlive a disconnect, as history.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table dbt_integration (
      deployment_id integer primary key references deployment(id) on delete cascade,
      account_id integer not null references account(id) on delete cascade,
      repository text not null,
      folder text not null,
      branch text not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create table dbt_sync (
      id integer generated always as identity primary key,
      account_id integer not null references account(id) on delete cascade,
      deployment_id integer not null references deployment(id) on delete cascade,
      repository text not null,
      folder text not null,
      ref text not null,
      commit_sha text,
      state text not null default 'queued' check (state in ('queued', 'running', 'written', 'failed', 'cancelled')),
      cancel_requested boolean not null default false,
      stage text,
      stages jsonb not null,
      branch_name text,
      build_id bigint,
      error text,
      files jsonb not null default '[]',
      job_id bigint references job(id) on delete set null,
      worker_id text,
      created_at timestamptz not null default now(),
      finished_at timestamptz
    );
    create index dbt_sync_deployment on dbt_sync (deployment_id, id);
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table dbt_sync; drop table dbt_integration`.execute(db);
}
