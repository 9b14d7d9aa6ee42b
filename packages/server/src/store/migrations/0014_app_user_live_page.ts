import { sql, type Kysely } from 'kysely';

/**
 * SCIM lists and counts only users that are not deleted (migration 0012 keeps deleted ones for
 * the audit trail). With `deleted_at is null` in every page and count, the old paging index
 * (account_id, id) no longer answered them alone: each of the 100,000 rows of a count or a deep
 * offset was fetched from the table, and the last page took twice the first. A partial index on
 * the live users answers the same scans index-only again.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index app_user_live_page on app_user (account_id, id) where deleted_at is null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index app_user_live_page`.execute(db);
}
