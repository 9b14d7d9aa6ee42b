import type { Kysely } from 'kysely';
import { API_KEY_PREFIX } from '../../http/credential-header.js';
import { randomBase62 } from '../../lib/secrets.js';
import type { Database } from '../../store/schema.js';
import { transaction } from '../../store/transaction.js';
import { CredentialService } from '../credentials/service.js';
import { createTenantSettings } from '../tenant-settings/public.js';
import { UserService } from '../users/service.js';

export function newApiKeySecret(): string {
  return `${API_KEY_PREFIX}${randomBase62()}`;
}

/**
 * An account ready to use: its settings, an admin user and an unscoped admin API key for it. False
 * when the name is taken; of two operators or servers creating the same name at once, one wins.
 * The owners' services write their rows on `db`, so they join this transaction.
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
    await createTenantSettings(trx, account.id);
    const admin = await new UserService(trx).create(account.id, {
      email: `admin@${name}.plinth.local`,
      displayName: 'Administrator',
      role: 'admin',
    });
    await new CredentialService(trx).createApiKey(account.id, admin.id, { name: 'bootstrap', role: 'admin', deploymentIds: null }, apiKey);
    return true;
  });
}
