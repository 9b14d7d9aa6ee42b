import { sql, type Kysely } from 'kysely';

/**
 * Embed sessions as Cube Cloud clients send them (issue 10): an account-wide switch for
 * embedding (on by default; generate-session answers 403 when it is off), and ephemeral external
 * users, which carry the moment they stop existing and take no slot of the section 8 limit.
 * Expired ones are removed when the account next mints an ephemeral session, led by the partial index.
 * The lookup trigger of migration 0007 is recreated to notify on the new setting as well.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table tenant_settings add column embedding_enabled boolean not null default true;
    drop trigger tenant_settings_embed_lookups on tenant_settings;
    create trigger tenant_settings_embed_lookups
      after insert or update of use_creator_mode, show_dashboard_chat, bulk_action_limit, embedding_enabled or delete
      on tenant_settings for each row execute function plinth_notify_embed_lookups();

    alter table external_user add column expires_at timestamptz;
    create index external_user_expiry on external_user (account_id, expires_at) where expires_at is not null;
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    drop index external_user_expiry;
    alter table external_user drop column expires_at;
    drop trigger tenant_settings_embed_lookups on tenant_settings;
    create trigger tenant_settings_embed_lookups after insert or update of use_creator_mode, show_dashboard_chat, bulk_action_limit or delete
      on tenant_settings for each row execute function plinth_notify_embed_lookups();
    alter table tenant_settings drop column embedding_enabled;
  `.execute(db);
}
