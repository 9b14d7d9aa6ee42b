import type { CacheDeclaration } from './cache-declaration.js';
import type { Store } from './store.js';

/** A per-process cache of answers that belong to accounts. */
export interface AccountScopedCache {
  forgetAccount(accountId: number): void;
  forgetAll(): void;
}

/**
 * Keeps a cache honest across every server on the database, as its declaration says: a watched
 * write in this process forgets the accounts it wrote at once (everything when the statement does
 * not tell), and a NOTIFY on the declared channel (sent on commit by the generic trigger, with the
 * account id as payload) forgets that account in every process. A lost LISTEN connection empties
 * everything, since messages may have been missed.
 */
export async function keepFresh(store: Store, declaration: CacheDeclaration, cache: AccountScopedCache): Promise<void> {
  store.watchWrites(declaration.tables, (accounts) => {
    if (accounts === 'all') cache.forgetAll();
    else for (const accountId of accounts) cache.forgetAccount(accountId);
  });
  await store.listen(declaration.channel, (payload) => {
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
