import { sql, type Kysely } from 'kysely';

/**
 * The account's Slack bot token (`xoxb-…`), which notifications post to Slack channels with:
 * sealed with the server's secret key, never returned once set. One row per account; absent: none.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table slack_bot_token (
      account_id integer primary key references account(id) on delete cascade,
      token_sealed text not null,
      updated_by integer references app_user(id) on delete set null,
      updated_at timestamptz not null default now()
    )
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table slack_bot_token`.execute(db);
}
