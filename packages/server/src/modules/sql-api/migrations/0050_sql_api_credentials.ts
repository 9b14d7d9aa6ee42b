import { sql, type Kysely } from 'kysely';

/**
 * The SQL API's credentials: one user and password per deployment environment (an environment is a
 * branch: its id is the branch's). The password is kept as a SCRAM-SHA-256 verifier, which is all
 * authentication needs, and sealed with the instance key, because the environments operations show
 * it again as Cube Cloud's do.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table sql_api_credential (
      id bigint generated always as identity primary key,
      account_id integer not null references account(id) on delete cascade,
      deployment_id integer not null references deployment(id) on delete cascade,
      environment_id text not null,
      branch_name text not null,
      user_name text not null,
      scram_salt text not null,
      scram_iterations integer not null,
      scram_stored_key text not null,
      scram_server_key text not null,
      password_sealed text not null,
      created_at timestamptz not null default now(),
      unique (deployment_id, environment_id),
      unique (deployment_id, user_name)
    );
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table sql_api_credential;`.execute(db);
}
