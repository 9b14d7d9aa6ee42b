import type { Store } from '../../store/store.js';
import type { CredentialService } from './service.js';
import { CREDENTIAL_WRITES } from './verify.js';

export const CREDENTIALS_CHANNEL = 'plinth_credentials';

/**
 * Keeps the verified-credential cache honest: a write in this process empties it at once, and a
 * NOTIFY from any process (sent on commit by migration 0002's triggers) empties the account's
 * entries. A lost LISTEN connection empties everything.
 */
export async function watchCredentialChanges(store: Store, credentials: CredentialService): Promise<void> {
  const { verifiers } = credentials;
  store.watchWrites(CREDENTIAL_WRITES, () => verifiers.forgetAll());
  await store.listen(CREDENTIALS_CHANNEL, (payload) => {
    const accountId = Number(payload);
    if (payload === null || !Number.isInteger(accountId)) verifiers.forgetAll();
    else verifiers.forgetAccount(accountId);
  });
}
