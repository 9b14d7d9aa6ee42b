import { sql, type Kysely } from 'kysely';

/**
 * Indexes for SCIM's reads over app_user and user_group. SCIM owns no table: users and groups
 * are the foundation's. The `userName eq` lookup already has app_user_email_per_account
 * (account_id, lower(email)); paging in id order, with its count, runs as an index-only scan on
 * (account_id, id), so a deep startIndex costs little more than the first page.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create index app_user_account_id on app_user (account_id, id);
    create index app_user_external_id on app_user (account_id, external_id);
    create index user_group_account_id on user_group (account_id, id);
    create index user_group_lower_name on user_group (account_id, lower(name));
    create index user_group_external_id on user_group (account_id, external_id);
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    drop index app_user_account_id, app_user_external_id, user_group_account_id, user_group_lower_name, user_group_external_id;
  `.execute(db);
}
