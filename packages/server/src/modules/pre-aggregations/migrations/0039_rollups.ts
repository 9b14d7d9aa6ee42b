import { sql, type Kysely } from 'kysely';

/**
 * Pre-aggregations: the manifest of built rollup partitions (one row per build, rollup and
 * partition, naming the current version's Parquet file under the data directory), the files of
 * replaced versions waiting out a grace period before they are deleted, whether a build's rollups
 * are built (a build whose are still building is not served yet), and each rollup's next refresh
 * check. Readers take file names from here only, so a file that is not yet renamed into place is
 * never read.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table rollup_partition (
      id serial primary key,
      account_id integer not null references account(id) on delete cascade,
      deployment_id integer not null references deployment(id) on delete cascade,
      build_id integer not null references model_build(id) on delete cascade,
      rollup_id text not null,
      name text not null,
      range_start text,
      range_end text,
      version text,
      refresh_key text,
      file text,
      row_count bigint,
      bytes bigint,
      built_at timestamptz,
      build_ms integer,
      last_error text,
      error_at timestamptz,
      unique (build_id, rollup_id, name)
    );
    create index rollup_partition_deployment on rollup_partition (account_id, deployment_id, build_id);
    create table rollup_retired_file (
      id serial primary key,
      file text not null,
      retired_at timestamptz not null
    );
    create index rollup_retired_file_retired_at on rollup_retired_file (retired_at);
    create table rollup_build (
      build_id integer primary key references model_build(id) on delete cascade,
      account_id integer not null references account(id) on delete cascade,
      deployment_id integer not null references deployment(id) on delete cascade,
      branch_name text not null,
      state text not null,
      rollups integer not null,
      error text,
      updated_at timestamptz not null default now()
    );
    create table rollup_schedule (
      build_id integer not null references model_build(id) on delete cascade,
      rollup_id text not null,
      account_id integer not null references account(id) on delete cascade,
      deployment_id integer not null references deployment(id) on delete cascade,
      next_check_at timestamptz not null,
      check_ms integer not null,
      last_checked_at timestamptz,
      claimed_by text,
      claimed_until timestamptz,
      refreshed_at timestamptz,
      last_error text,
      primary key (build_id, rollup_id)
    );
    create index rollup_schedule_due on rollup_schedule (next_check_at);
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table rollup_schedule; drop table rollup_build; drop table rollup_retired_file; drop table rollup_partition`.execute(db);
}
