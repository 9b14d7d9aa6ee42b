import { AccountKeyedCache } from '../../store/account-caches.js';
import type { CacheDeclaration } from '../../store/cache-declaration.js';
import type { ModuleCache } from '../module.js';

/**
 * What a data API request is served from, besides its token: the branch's latest successful
 * build, whether the branch is served at all, the deployment's warehouse variables and the build's
 * rollup partitions. Any build changing state, a rollup partition switched to a new version, a branch enabled or disabled, a variable set or a deployment deleted forgets the
 * account's entries in every process (the triggers are made from this declaration, store/cache-triggers.ts).
 */
export const DATA_API_SERVING_CACHE: CacheDeclaration = {
  channel: 'plinth_data_api_serving',
  tables: {
    deployment: { updates: ['id', 'account_id'] },
    model_build: { updates: ['status', 'branch_name', 'commit_id', 'deployment_id', 'account_id'], inserts: true },
    model_branch: { updates: ['name', 'kind', 'is_default', 'always_active', 'deployment_id', 'account_id'] },
    deployment_variable: { updates: 'any', inserts: true },
    // A build's rollups becoming ready changes which build serves; a partition's new version, what it reads.
    rollup_build: { updates: ['state'], inserts: true },
    rollup_partition: { updates: ['version', 'file'], inserts: true },
  },
};

/**
 * Remembers the metadata lookups of serving, so a warm `load` (answered from the result cache)
 * costs no query of the metadata store. Absence is remembered too (no build yet), which is why
 * new builds and variables forget the account.
 */
export class ServingLookups {
  readonly cache = new AccountKeyedCache<string, unknown>();

  async through<V>(accountId: number, key: string, read: () => Promise<V>): Promise<V> {
    const known = this.cache.get(accountId, key);
    if (known !== undefined) return known as V;
    const generation = this.cache.generation;
    const value = await read();
    this.cache.remember(accountId, key, value, generation);
    return value;
  }
}

export const dataApiCaches: ModuleCache[] = [{ declaration: DATA_API_SERVING_CACHE, cache: (services) => services.dataApi.serving.cache }];
