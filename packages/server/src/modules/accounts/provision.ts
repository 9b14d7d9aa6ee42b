import type { Kysely } from 'kysely';
import { API_KEY_PREFIX } from '../../http/credential-header.js';
import { hashCredential, randomBase62 } from '../../lib/secrets.js';
import type { Database } from '../../store/schema.js';
import { transaction } from '../../store/transaction.js';

export function newApiKeySecret(): string {
  return `${API_KEY_PREFIX}${randomBase62()}`;
}

/**
 * An account ready to use: its settings, an admin user and an unscoped admin API key for it. False
 * when the name is taken; of two operators or servers creating the same name at once, one wins.
 */
export async function createAccountWithAdmin(db: Kysely<Database>, name: string, apiKey: string): Promise<boolean> {
  return transaction(db, async (trx) => {
    const account = await trx
      .insertInto('account')
      .values({ name })
      .onConflict((oc) => oc.column('name').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!account) return false;
    await trx.insertInto('tenant_settings').values({ account_id: account.id }).execute();
    const admin = await trx
      .insertInto('app_user')
      .values({ account_id: account.id, email: `admin@${name}.plinth.local`, display_name: 'Administrator', role: 'admin' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('api_key')
      .values({
        account_id: account.id,
        user_id: admin.id,
        name: 'bootstrap',
        role: 'admin',
        deployment_ids: null,
        key_hash: hashCredential(apiKey),
        key_prefix: apiKey.slice(0, 8),
      })
      .execute();
    return true;
  });
}
