import { sql, type Kysely } from 'kysely';

/**
 * Data API credentials of a deployment (issue 14):
 * - `deployment_api_secret`: the HS256 secret every data API token and environment token of the
 *   deployment is signed with, sealed with the instance key; created on first use, one per deployment;
 * - `deployment_environment_token`: what was minted for an environment (a token must be listed
 *   again, as the reference's list shows it, so it is kept sealed with its security context and times).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table deployment_api_secret (
      deployment_id integer primary key references deployment(id) on delete cascade,
      account_id integer not null references account(id) on delete cascade,
      secret_sealed text not null,
      created_at timestamptz not null default now()
    );
    create table deployment_environment_token (
      id bigint generated always as identity primary key,
      account_id integer not null references account(id) on delete cascade,
      deployment_id integer not null references deployment(id) on delete cascade,
      environment_id text not null,
      for_meta_sync boolean not null default false,
      security_context jsonb not null,
      token_sealed text not null,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null
    );
    create index deployment_environment_token_environment on deployment_environment_token (deployment_id, environment_id, id);
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table deployment_environment_token; drop table deployment_api_secret;`.execute(db);
}
