import { sql, type Kysely } from 'kysely';

/**
 * A dbt integration may name a private repository as `github connect` does: `owner/repo` of a
 * GitHub App installation (`installation_id`, cloned with the installation's token), or an https
 * URL whose user and password (or token) are kept sealed with the server's secret key in
 * `repository_credentials` while `repository` holds the URL without them. A sync records the
 * installation it clones through; it takes the credentials from its integration when it runs, so
 * they are stored once and go with a disconnect. Existing rows are public or ssh: both null.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table dbt_integration add column installation_id bigint`.execute(db);
  await sql`alter table dbt_integration add column repository_credentials text`.execute(db);
  await sql`alter table dbt_sync add column installation_id bigint`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table dbt_sync drop column installation_id`.execute(db);
  await sql`alter table dbt_integration drop column repository_credentials`.execute(db);
  await sql`alter table dbt_integration drop column installation_id`.execute(db);
}
