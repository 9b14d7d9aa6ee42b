import { sql, type Kysely } from 'kysely';

/**
 * A deployment's environment variables (issue 14): they configure its warehouse (`CUBEJS_DB_*`)
 * and whatever else its model reads. Values are sealed with the instance's secret box, so a copy
 * of the database alone does not reveal warehouse passwords; `secret` says whether listings show
 * the value or only a mask. One row per (deployment, name); deleting the deployment deletes them.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table deployment_variable (
      account_id integer not null references account(id) on delete cascade,
      deployment_id integer not null references deployment(id) on delete cascade,
      name text not null,
      value_sealed text not null,
      secret boolean not null,
      updated_at timestamptz not null default now(),
      primary key (deployment_id, name)
    );
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table deployment_variable`.execute(db);
}
