import { sql, type Kysely } from 'kysely';

/**
 * The paging indexes of an embed tenant's users, groups and attributes led with `account_id`, so
 * a lookup by `(account_id, embed_tenant_id, external_id)` matched two columns of them as well as
 * two of the unique `(embed_tenant_id, external_id)`. Planned before the table had statistics (a
 * tenant just provisioned in bulk, a prepared statement's generic plan), PostgreSQL picked the
 * paging index and filtered every user of the tenant on each page view: 1.3 ms of a 2 ms
 * generate-session (bench/RESULTS.md, issue 3). Led by the embed tenant, which belongs to one
 * account, they serve the same pages and leave the lookups to the unique indexes.
 */
const PAGED = ['external_user', 'embed_group', 'embed_user_attribute'] as const;

export async function up(db: Kysely<any>): Promise<void> {
  for (const table of PAGED) {
    await sql`drop index ${sql.ref(`${table}_page`)}`.execute(db);
    await sql`create index ${sql.ref(`${table}_page`)} on ${sql.table(table)} (embed_tenant_id, id)`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of PAGED) {
    await sql`drop index ${sql.ref(`${table}_page`)}`.execute(db);
    await sql`create index ${sql.ref(`${table}_page`)} on ${sql.table(table)} (account_id, embed_tenant_id, id)`.execute(db);
  }
}
