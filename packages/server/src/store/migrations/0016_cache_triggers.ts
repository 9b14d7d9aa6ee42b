import { sql, type Kysely } from 'kysely';

/**
 * Issue 11, one cache-invalidation mechanism: every cache trigger calls one function,
 * `plinth_notify_cache(channel[, account column])`, which notifies the channel with the account id
 * of the row (old and new when an update moves it). The triggers below are the cache declarations
 * of the modules as of this migration (credentials, embed-tenants, oauth-integrations, accounts);
 * `cache-triggers.test.ts` compares the installed triggers with the declarations, so a change to
 * a declaration comes with a migration. Replaces the four per-cache functions of 0002, 0007
 * (0013), 0008 and 0010. Payloads and channels are unchanged, so servers of either side of this
 * migration understand each other during a rolling upgrade.
 */
const triggers: Array<[table: string, channel: string, events: string, accountColumn?: string]> = [
  ['api_key', 'plinth_credentials', 'update of revoked_at, role, deployment_ids, user_id, key_hash or delete'],
  ['access_token', 'plinth_credentials', 'update of revoked_at, expires_at, token_hash, user_id or delete'],
  ['scim_token', 'plinth_credentials', 'update of revoked_at, token_hash or delete'],
  ['app_user', 'plinth_credentials', 'update of active, role, account_id or delete'],
  ['deployment', 'plinth_embed_lookups', 'update of id, account_id or delete'],
  [
    'tenant_settings',
    'plinth_embed_lookups',
    'insert or update of use_creator_mode, show_dashboard_chat, bulk_action_limit, embedding_enabled or delete',
  ],
  ['user_group', 'plinth_embed_lookups', 'update of id, name, account_id or delete'],
  ['user_attribute', 'plinth_embed_lookups', 'update of id, name, type, account_id or delete'],
  ['oauth_integration', 'plinth_oauth_integrations', 'update or delete'],
  ['account', 'plinth_accounts', 'insert or update of disabled_at, name, custom_domain or delete', 'id'],
];

const oldTriggers = [
  'api_key_changed on api_key',
  'access_token_changed on access_token',
  'scim_token_changed on scim_token',
  'app_user_changed on app_user',
  'deployment_embed_lookups on deployment',
  'tenant_settings_embed_lookups on tenant_settings',
  'user_group_embed_lookups on user_group',
  'user_attribute_embed_lookups on user_attribute',
  'oauth_integration_changed on oauth_integration',
  'account_changed on account',
];

function triggerName(table: string, channel: string): string {
  return `${table}_${channel.replace(/^plinth_/, '')}_cache`;
}

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function plinth_notify_cache() returns trigger language plpgsql as $$
    declare
      account_column text := coalesce(tg_argv[1], 'account_id');
      old_account text;
      new_account text;
    begin
      if tg_op <> 'INSERT' then old_account := to_jsonb(old) ->> account_column; end if;
      if tg_op <> 'DELETE' then new_account := to_jsonb(new) ->> account_column; end if;
      if new_account is not null then perform pg_notify(tg_argv[0], new_account); end if;
      if old_account is distinct from new_account and old_account is not null then
        perform pg_notify(tg_argv[0], old_account);
      end if;
      return null;
    end $$;
  `.execute(db);
  for (const old of oldTriggers) await sql.raw(`drop trigger ${old}`).execute(db);
  for (const [table, channel, events, accountColumn] of triggers) {
    const args = [channel, ...(accountColumn ? [accountColumn] : [])].map((a) => `'${a}'`).join(', ');
    await sql
      .raw(
        `create trigger ${triggerName(table, channel)} after ${events} on ${table} for each row execute function plinth_notify_cache(${args})`,
      )
      .execute(db);
  }
  await sql`
    drop function plinth_notify_credentials();
    drop function plinth_notify_embed_lookups();
    drop function plinth_notify_oauth_integrations();
    drop function plinth_notify_accounts();
  `.execute(db);
}

/** Back to one function per channel, as 0002, 0007 (0013), 0008 and 0010 left them. */
export async function down(db: Kysely<any>): Promise<void> {
  for (const [table, channel] of triggers) await sql.raw(`drop trigger ${triggerName(table, channel)} on ${table}`).execute(db);
  await sql`
    create function plinth_notify_credentials() returns trigger language plpgsql as $$
    begin
      perform pg_notify('plinth_credentials', (case when tg_op = 'DELETE' then old.account_id else new.account_id end)::text);
      return null;
    end $$;
    create function plinth_notify_embed_lookups() returns trigger language plpgsql as $$
    begin
      perform pg_notify('plinth_embed_lookups', (case when tg_op = 'DELETE' then old.account_id else new.account_id end)::text);
      if tg_op = 'UPDATE' and old.account_id <> new.account_id then
        perform pg_notify('plinth_embed_lookups', old.account_id::text);
      end if;
      return null;
    end $$;
    create function plinth_notify_oauth_integrations() returns trigger language plpgsql as $$
    begin
      perform pg_notify('plinth_oauth_integrations', (case when tg_op = 'DELETE' then old.account_id else new.account_id end)::text);
      return null;
    end $$;
    create function plinth_notify_accounts() returns trigger language plpgsql as $$
    begin
      perform pg_notify('plinth_accounts', (case when tg_op = 'DELETE' then old.id else new.id end)::text);
      return null;
    end $$;
  `.execute(db);
  const functions: Record<string, string> = {
    plinth_credentials: 'plinth_notify_credentials',
    plinth_embed_lookups: 'plinth_notify_embed_lookups',
    plinth_oauth_integrations: 'plinth_notify_oauth_integrations',
    plinth_accounts: 'plinth_notify_accounts',
  };
  for (const [i, [table, channel, events]] of triggers.entries()) {
    await sql
      .raw(
        `create trigger ${oldTriggers[i]!.split(' ')[0]} after ${events} on ${table} for each row execute function ${functions[channel]}()`,
      )
      .execute(db);
  }
  await sql`drop function plinth_notify_cache()`.execute(db);
}
