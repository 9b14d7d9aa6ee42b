import { sql, type Kysely } from 'kysely';

/**
 * Servers remember, per account, what generate-session and provisioning look up on every call:
 * that a deployment exists, the tenant settings, the ids of tenant-wide group and attribute names.
 * Any change that can make such an answer wrong notifies every server on the database, wherever it
 * came from (platform API, SCIM, SQL by hand). The payload is the account id; sent on commit.
 * Mirrors EMBED_LOOKUP_WRITES in modules/embed-tenants/lookups.ts.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function plinth_notify_embed_lookups() returns trigger language plpgsql as $$
    begin
      perform pg_notify('plinth_embed_lookups', (case when tg_op = 'DELETE' then old.account_id else new.account_id end)::text);
      if tg_op = 'UPDATE' and old.account_id <> new.account_id then
        perform pg_notify('plinth_embed_lookups', old.account_id::text);
      end if;
      return null;
    end $$;

    create trigger deployment_embed_lookups after update of id, account_id or delete
      on deployment for each row execute function plinth_notify_embed_lookups();
    create trigger tenant_settings_embed_lookups after insert or update of use_creator_mode, show_dashboard_chat, bulk_action_limit or delete
      on tenant_settings for each row execute function plinth_notify_embed_lookups();
    create trigger user_group_embed_lookups after update of id, name, account_id or delete
      on user_group for each row execute function plinth_notify_embed_lookups();
    create trigger user_attribute_embed_lookups after update of id, name, type, account_id or delete
      on user_attribute for each row execute function plinth_notify_embed_lookups();
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    drop trigger user_attribute_embed_lookups on user_attribute;
    drop trigger user_group_embed_lookups on user_group;
    drop trigger tenant_settings_embed_lookups on tenant_settings;
    drop trigger deployment_embed_lookups on deployment;
    drop function plinth_notify_embed_lookups();
  `.execute(db);
}
