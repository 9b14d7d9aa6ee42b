import { sql, type Kysely } from 'kysely';

/**
 * The engine versions an account's deployments have run (section 9 rule 3: `versions` lists the
 * head of each channel plus older versions the account has run). A row is written when a
 * deployment is created and whenever its version changes; it belongs to the account, not the
 * deployment, so deleting a deployment keeps what the account ran (`deployment_id` goes null).
 * One row per (account, version): `channel` is the channel it last ran on, `last_run_at` orders
 * the history newest first.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table engine_version_run (
      account_id integer not null references account(id) on delete cascade,
      version text not null,
      channel text not null,
      deployment_id integer references deployment(id) on delete set null,
      first_run_at timestamptz not null default now(),
      last_run_at timestamptz not null default now(),
      primary key (account_id, version)
    );
  `.execute(db);
  // Deployments that existed before this migration ran the version they have pinned, or their
  // default channel's head; only pinned ones can be known here, the rest are recorded on their next change.
  await sql`
    insert into engine_version_run (account_id, version, channel, deployment_id)
    select distinct on (account_id, release_channel_version) account_id, release_channel_version, release_channel, id
    from deployment
    where release_channel_version is not null and release_channel is not null
    order by account_id, release_channel_version, id desc
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table engine_version_run`.execute(db);
}
