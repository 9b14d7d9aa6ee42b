import { sql, type Kysely } from 'kysely';

/**
 * SCIM lists and counts only users that are not deleted (migration 0012 keeps deleted ones for
 * the audit trail). With `deleted_at is null` in every page and count, the paging index
 * (account_id, id) no longer answered them alone: each of the 100,000 rows skipped by a deep
 * offset was fetched from the table, and the last page took twice the first. The paging index
 * now carries deleted_at, so those scans are index-only again.
 *
 * Not a partial index `where deleted_at is null`: that made walking the index in id order look
 * free to a planner without statistics, which then chose it over the unique userName index for
 * the `userName eq` lookup of every identity provider and filtered the whole account.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create index app_user_live_page on app_user (account_id, id) include (deleted_at);
    drop index app_user_account_id;
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    create index app_user_account_id on app_user (account_id, id);
    drop index app_user_live_page;
  `.execute(db);
}
