import { keepFresh } from '../../store/account-caches.js';
import type { Store } from '../../store/store.js';
import type { CredentialService } from './service.js';
import { CREDENTIAL_WRITES } from './verify.js';

/** Channel of migration 0002's triggers. */
export const CREDENTIALS_CHANNEL = 'plinth_credentials';

/** The verified-credential cache forgets an account the moment anything could take a credential away. */
export function watchCredentialChanges(store: Store, credentials: CredentialService): Promise<void> {
  return keepFresh(store, CREDENTIALS_CHANNEL, CREDENTIAL_WRITES, credentials.verifiers);
}
