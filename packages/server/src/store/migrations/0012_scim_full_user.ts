import { sql, type Kysely } from 'kysely';

/**
 * SCIM users as identity providers send them (issue 10).
 *
 * - `user_name`: SCIM's userName, any non-empty string (Entra sends mailNickname, employee ids,
 *   `#EXT#` UPNs). Null for users the platform API created, whose userName is their e-mail; the
 *   unique index covers both, so `userName eq` is one index probe either way.
 * - `email` becomes optional: it is the sign-in address, which a provisioned user may not have.
 * - `scim_attributes`: the rest of the core User and the enterprise extension, as sent.
 * - A SCIM delete keeps the user row and its credentials, deactivated, with who/when/why, instead
 *   of erasing them; the unique indexes skip such rows so the same user can be provisioned again.
 *
 * PostgreSQL gathers no statistics on the expressions of a partial index, so without the two
 * statistics objects the planner guessed 0.5 % of the account for `userName eq` and walked the
 * primary key for a page of one (130 ms at 100,000 users instead of 0.1 ms; bench/RESULTS.md).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table app_user alter column email drop not null;
    alter table app_user add column user_name text;
    alter table app_user add column scim_attributes jsonb;
    alter table app_user add column deleted_at timestamptz;
    alter table app_user add column deleted_by text;
    alter table app_user add column deletion_reason text;
    drop index app_user_email_per_account;
    create unique index app_user_email_per_account on app_user (account_id, lower(email)) where deleted_at is null;
    create unique index app_user_user_name_per_account on app_user (account_id, lower(coalesce(user_name, email)))
      where deleted_at is null;
    create statistics app_user_lower_email_stats on (lower(email)) from app_user;
    create statistics app_user_user_name_stats on (lower(coalesce(user_name, email))) from app_user;
    alter table api_key add column revoked_reason text;
    alter table access_token add column revoked_reason text;
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    delete from app_user where deleted_at is not null or email is null;
    alter table access_token drop column revoked_reason;
    alter table api_key drop column revoked_reason;
    drop statistics app_user_user_name_stats, app_user_lower_email_stats;
    drop index app_user_user_name_per_account;
    drop index app_user_email_per_account;
    create unique index app_user_email_per_account on app_user (account_id, lower(email));
    alter table app_user drop column deletion_reason;
    alter table app_user drop column deleted_by;
    alter table app_user drop column deleted_at;
    alter table app_user drop column scim_attributes;
    alter table app_user drop column user_name;
    alter table app_user alter column email set not null;
  `.execute(db);
}
