import { sql, type Kysely } from 'kysely';

/**
 * Login of the command-line client (issue 5): device authorizations (RFC 8628), login sessions
 * that group the access tokens a refresh-token chain produced (so reusing a rotated refresh token
 * revokes the whole chain), one-time invite links that set a password, and anonymous telemetry.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table device_authorization (
      id integer generated always as identity primary key,
      account_id integer not null references account(id) on delete cascade,
      device_code_hash text not null unique,
      user_code text not null,
      client_name text,
      status text not null default 'pending' check (status in ('pending', 'approved', 'denied', 'consumed')),
      user_id integer references app_user(id) on delete cascade,
      interval_s integer not null,
      last_polled_at timestamptz,
      expires_at timestamptz not null,
      created_at timestamptz not null default now()
    );
    create index device_authorization_user_code on device_authorization (account_id, user_code);

    create table login_session (
      id integer generated always as identity primary key,
      account_id integer not null references account(id) on delete cascade,
      user_id integer not null references app_user(id) on delete cascade,
      client_name text,
      created_at timestamptz not null default now(),
      revoked_at timestamptz
    );

    create table login_token (
      access_token_id integer primary key references access_token(id) on delete cascade,
      session_id integer not null references login_session(id) on delete cascade
    );
    create index login_token_session on login_token (session_id);

    create table user_invite (
      id integer generated always as identity primary key,
      account_id integer not null references account(id) on delete cascade,
      user_id integer not null references app_user(id) on delete cascade,
      token_hash text not null unique,
      created_by_user_id integer references app_user(id) on delete set null,
      expires_at timestamptz not null,
      used_at timestamptz,
      created_at timestamptz not null default now()
    );

    create table telemetry_event (
      id bigint generated always as identity primary key,
      account_id integer not null references account(id) on delete cascade,
      command text not null,
      success boolean not null,
      version text not null,
      platform text not null,
      machine_id text not null,
      created_at timestamptz not null default now()
    );
    create index telemetry_event_account on telemetry_event (account_id, created_at);
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table telemetry_event, user_invite, login_token, login_session, device_authorization;`.execute(db);
}
