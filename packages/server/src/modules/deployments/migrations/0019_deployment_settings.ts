import { sql, type Kysely } from 'kysely';

/**
 * Deployments in full (issue 14): how a deployment takes its data model (`deploy_mode`, `cli` lets
 * the client upload), how it was created (`creation_method`), and the engine version it runs.
 * `release_channel` and `release_channel_version` stay null until set: a deployment then follows
 * the head of the server's default channel, so changing PLINTH_RELEASE_CHANNELS moves it along.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table deployment
      add column deploy_mode text check (deploy_mode in ('cli', 'git')),
      add column creation_method text check (creation_method in ('github', 'upload', 'ssh')),
      add column release_channel text,
      add column release_channel_version text
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    alter table deployment
      drop column release_channel_version,
      drop column release_channel,
      drop column creation_method,
      drop column deploy_mode
  `.execute(db);
}
