import { sql, type Kysely } from 'kysely';

/**
 * Servers remember OAuth integrations they have read; any update or delete notifies every server
 * on the database so they forget that account's entries. Mirrors OAUTH_INTEGRATION_WRITES in
 * modules/oauth-integrations/service.ts. The payload is the account id; sent on commit.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function plinth_notify_oauth_integrations() returns trigger language plpgsql as $$
    begin
      perform pg_notify('plinth_oauth_integrations', (case when tg_op = 'DELETE' then old.account_id else new.account_id end)::text);
      return null;
    end $$;

    create trigger oauth_integration_changed after update or delete
      on oauth_integration for each row execute function plinth_notify_oauth_integrations();
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    drop trigger oauth_integration_changed on oauth_integration;
    drop function plinth_notify_oauth_integrations();
  `.execute(db);
}
