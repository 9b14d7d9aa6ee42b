import { sql, type Kysely } from 'kysely';

/**
 * A repository connected by an https URL with a token in it (`https://user:token@host/…`) keeps the
 * URL without the token in `repository`, where push webhooks match it, and the credentials sealed
 * with the server's secret key in `repository_credentials`. Rows written before this keep their URL
 * as it was; the import reads the credentials out of it, and connecting again seals them.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table github_connection add column repository_credentials text`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table github_connection drop column repository_credentials`.execute(db);
}
