import { sql, type Kysely } from 'kysely';

/**
 * Rate limits live in the store so every replica counts the same attempts (issue 10, security 5):
 * one row per bucket (a policy and what it counts, hashed), changed only by one atomic upsert.
 * The indexes on expiry columns let the bounded purges that run beside each insert stay cheap.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table rate_limit (
      bucket text primary key,
      hits integer not null,
      window_start timestamptz not null,
      last_hit_at timestamptz not null
    );
    create index rate_limit_last_hit on rate_limit (last_hit_at);
    create index device_authorization_expires on device_authorization (expires_at);
    create index user_invite_expires on user_invite (expires_at);
    create index login_session_revoked on login_session (revoked_at) where revoked_at is not null;
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    drop index login_session_revoked, user_invite_expires, device_authorization_expires;
    drop table rate_limit;
  `.execute(db);
}
