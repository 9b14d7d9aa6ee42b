import type { CacheDeclaration } from '../../store/cache-declaration.js';
import type { ModuleCache } from '../module.js';

/**
 * What a change can take away from a verified credential (revocation, deletion, a user
 * deactivated, demoted, moved or deleted, a key's scope changed), wherever it comes from.
 */
export const CREDENTIALS_CACHE: CacheDeclaration = {
  channel: 'plinth_credentials',
  tables: {
    api_key: { updates: ['revoked_at', 'role', 'deployment_ids', 'user_id', 'key_hash'] },
    access_token: { updates: ['revoked_at', 'expires_at', 'token_hash', 'user_id'] },
    scim_token: { updates: ['revoked_at', 'token_hash'] },
    app_user: { updates: ['active', 'role', 'account_id'] },
  },
};

/** The verified-credential cache forgets an account the moment anything could take a credential away. */
export const credentialCaches: ModuleCache[] = [{ declaration: CREDENTIALS_CACHE, cache: (services) => services.credentials.verifiers }];
