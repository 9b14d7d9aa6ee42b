import type { CacheDeclaration } from '../../store/cache-declaration.js';
import type { ModuleCache } from '../module.js';

/**
 * What a change can take away from a verified credential (revocation, deletion, a user
 * deactivated, demoted, moved or deleted, a key's scope or permissions changed, a resource policy
 * or a group membership changed), wherever it comes from.
 */
export const CREDENTIALS_CACHE: CacheDeclaration = {
  channel: 'plinth_credentials',
  tables: {
    api_key: { updates: ['revoked_at', 'role', 'deployment_ids', 'user_id', 'key_hash', 'permissions'] },
    access_token: { updates: ['revoked_at', 'expires_at', 'token_hash', 'user_id'] },
    scim_token: { updates: ['revoked_at', 'token_hash'] },
    app_user: { updates: ['active', 'role', 'account_id'] },
    // Grants are loaded with the credential (migration 0023): policies and memberships change them.
    resource_policy: { updates: 'any', inserts: true },
    group_member: { updates: 'any', inserts: true },
  },
};

/** The verified-credential cache forgets an account the moment anything could take a credential away. */
export const credentialCaches: ModuleCache[] = [{ declaration: CREDENTIALS_CACHE, cache: (services) => services.credentials.verifiers }];
