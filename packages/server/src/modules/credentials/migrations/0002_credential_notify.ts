import { sql, type Kysely } from 'kysely';

/**
 * Servers cache verified credentials for a few seconds. Any change that can take a credential away
 * (revocation, deletion, a user deactivated, demoted or deleted, a key's scope changed) notifies
 * every server on the database, wherever the change came from (platform API, SCIM, SQL by hand).
 * The payload is the account id; notifications are sent on commit.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function plinth_notify_credentials() returns trigger language plpgsql as $$
    begin
      perform pg_notify('plinth_credentials', (case when tg_op = 'DELETE' then old.account_id else new.account_id end)::text);
      return null;
    end $$;

    create trigger api_key_changed after update of revoked_at, role, deployment_ids, user_id, key_hash or delete
      on api_key for each row execute function plinth_notify_credentials();
    create trigger access_token_changed after update of revoked_at, expires_at, token_hash, user_id or delete
      on access_token for each row execute function plinth_notify_credentials();
    create trigger scim_token_changed after update of revoked_at, token_hash or delete
      on scim_token for each row execute function plinth_notify_credentials();
    create trigger app_user_changed after update of active, role, account_id or delete
      on app_user for each row execute function plinth_notify_credentials();
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    drop trigger app_user_changed on app_user;
    drop trigger scim_token_changed on scim_token;
    drop trigger access_token_changed on access_token;
    drop trigger api_key_changed on api_key;
    drop function plinth_notify_credentials();
  `.execute(db);
}
