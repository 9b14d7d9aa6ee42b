import type { CacheDeclaration } from '../../store/cache-declaration.js';
import type { ModuleCache } from '../module.js';

/**
 * What can change the account a host names: a new account (a host that named none a moment ago
 * may name it), or an account's state, name or domain. The account table's own id is the account.
 */
export const ACCOUNTS_CACHE: CacheDeclaration = {
  channel: 'plinth_accounts',
  tables: { account: { updates: ['disabled_at', 'name', 'custom_domain'], inserts: true, accountColumn: 'id' } },
};

export const accountCaches: ModuleCache[] = [{ declaration: ACCOUNTS_CACHE, cache: (services) => services.accounts }];
