import { sql, type Kysely } from 'kysely';

/**
 * Pre-aggregations kept in the source warehouse (`external: false`): a partition's version is a
 * table there, named in the manifest beside (instead of) a Parquet file, and the tables of replaced
 * versions wait out the same grace period as retired files before they are dropped. A retired table
 * keeps its deployment, whose warehouse it is dropped from.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table rollup_partition add column warehouse_table text;
    create table rollup_retired_table (
      id serial primary key,
      account_id integer not null references account(id) on delete cascade,
      deployment_id integer not null references deployment(id) on delete cascade,
      warehouse_table text not null,
      retired_at timestamptz not null
    );
    create index rollup_retired_table_retired_at on rollup_retired_table (retired_at);
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table rollup_retired_table; alter table rollup_partition drop column warehouse_table`.execute(db);
}
