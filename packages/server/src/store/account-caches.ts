import type { Store } from './store.js';
import type { WatchedWrites } from './write-watch.js';

/** A per-process cache of answers that belong to accounts. */
export interface AccountScopedCache {
  forgetAccount(accountId: number): void;
  forgetAll(): void;
}

/**
 * Keeps a cache honest across every server on the database: a watched write in this process
 * empties it at once, and a NOTIFY on `channel` (sent on commit by a trigger with the account id
 * as payload) empties that account's entries in every process. A lost LISTEN connection empties
 * everything, since messages may have been missed.
 */
export async function keepFresh(store: Store, channel: string, writes: WatchedWrites, cache: AccountScopedCache): Promise<void> {
  store.watchWrites(writes, () => cache.forgetAll());
  await store.listen(channel, (payload) => {
    const accountId = Number(payload);
    if (payload === null || payload === '' || !Number.isInteger(accountId)) cache.forgetAll();
    else cache.forgetAccount(accountId);
  });
}

const DEFAULT_TTL_MS = 5_000;
const MAX_ACCOUNTS = 10_000;

/**
 * Answers by account and key, kept until `keepFresh` says the account changed (the TTL is a
 * backstop only). A value read while the cache was being emptied is not kept: `remember` takes the
 * generation seen before the read, and drops the value if a forget happened since.
 */
export class AccountKeyedCache<K, V> implements AccountScopedCache {
  private readonly accounts = new Map<number, { until: number; entries: Map<K, V> }>();
  private forgets = 0;

  constructor(private readonly ttlMs = DEFAULT_TTL_MS) {}

  get generation(): number {
    return this.forgets;
  }

  get(accountId: number, key: K): V | undefined {
    const account = this.accounts.get(accountId);
    if (!account) return undefined;
    if (account.until <= Date.now()) {
      this.accounts.delete(accountId);
      return undefined;
    }
    return account.entries.get(key);
  }

  remember(accountId: number, key: K, value: V, generationBeforeRead: number): void {
    if (generationBeforeRead !== this.forgets) return;
    if (this.accounts.size >= MAX_ACCOUNTS) this.accounts.clear();
    let account = this.accounts.get(accountId);
    if (!account) {
      account = { until: Date.now() + this.ttlMs, entries: new Map() };
      this.accounts.set(accountId, account);
    }
    account.entries.set(key, value);
  }

  forgetAccount(accountId: number): void {
    this.forgets += 1;
    this.accounts.delete(accountId);
  }

  forgetAll(): void {
    this.forgets += 1;
    this.accounts.clear();
  }
}
