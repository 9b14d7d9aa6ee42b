import { sql, type Kysely } from 'kysely';

/**
 * OIDC token configs and user OAuth tokens (issue 16). A config trusts an OpenID Connect issuer:
 * its ID tokens may be exchanged for access tokens of the account's users. A user OAuth token is
 * what a provider issued to one user through an OAuth integration; both tokens are sealed with the
 * instance's secret box (never stored in clear) and the row outlives a revocation, marked revoked,
 * so a user's list still shows it. Deleting the user or the integration deletes the tokens.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table oidc_token_config (
      id integer generated always as identity primary key,
      account_id integer not null references account(id) on delete cascade,
      name text not null,
      issuer text not null,
      audiences jsonb not null,
      jwks_uri text,
      user_claim text not null default 'email',
      algorithms jsonb not null,
      enabled boolean not null default true,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create unique index oidc_token_config_name on oidc_token_config (account_id, lower(name));
    create unique index oidc_token_config_issuer on oidc_token_config (account_id, issuer);

    create table user_oauth_token (
      id integer generated always as identity primary key,
      account_id integer not null references account(id) on delete cascade,
      user_id integer not null references app_user(id) on delete cascade,
      integration_id integer not null references oauth_integration(id) on delete cascade,
      access_token_encrypted text,
      refresh_token_encrypted text,
      token_type text not null default 'Bearer',
      scopes jsonb not null default '[]',
      expires_at timestamptz,
      refreshed_at timestamptz,
      revoked_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index user_oauth_token_user on user_oauth_token (account_id, user_id, id);
    create index user_oauth_token_integration on user_oauth_token (integration_id);
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table user_oauth_token; drop table oidc_token_config`.execute(db);
}
