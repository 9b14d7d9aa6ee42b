import { sql, type Kysely } from 'kysely';

/**
 * Issue 10, accounts: an operator can disable an account (`plinth-server accounts disable`), and
 * every server on the database stops serving it at once. Servers cache which account a host names;
 * a new account, or a change to an account's state, name or domain, notifies them all to forget
 * what they cached (a host that named no account a moment ago may name the new one). Mirrors
 * ACCOUNT_WRITES in modules/accounts/service.ts. The payload is the account id; sent on commit.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table account add column disabled_at timestamptz;

    create function plinth_notify_accounts() returns trigger language plpgsql as $$
    begin
      perform pg_notify('plinth_accounts', (case when tg_op = 'DELETE' then old.id else new.id end)::text);
      return null;
    end $$;

    create trigger account_changed after insert or update of disabled_at, name, custom_domain or delete
      on account for each row execute function plinth_notify_accounts();
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    drop trigger account_changed on account;
    drop function plinth_notify_accounts();
    alter table account drop column disabled_at;
  `.execute(db);
}
