import { isIP } from 'node:net';
import { sql, type Kysely } from 'kysely';
import type { AccountRow, Database } from '../../store/schema.js';
import { transaction } from '../../store/transaction.js';
import { createTenantSettings } from '../tenant-settings/public.js';

/** A backstop only: ACCOUNTS_CACHE forgets hosts the moment an account is created or changed. */
const CACHE_MS = 5_000;

/** A host this server does not serve: with a base domain set, a name that is none of its hosts. */
export const UNKNOWN_HOST = 'unknown-host';
export type HostLookup = AccountRow | null | typeof UNKNOWN_HOST;

/**
 * Accounts (tenants). Host lookups are cached because every request makes one; an account's name
 * and domain change rarely, and any change forgets them (ACCOUNTS_CACHE).
 */
export class AccountService {
  private readonly byHost = new Map<string, { account: HostLookup; at: number }>();

  constructor(private readonly db: Kysely<Database>) {}

  create(name: string): Promise<AccountRow> {
    return transaction(this.db, async (trx) => {
      const account = await trx.insertInto('account').values({ name }).returningAll().executeTakeFirstOrThrow();
      await createTenantSettings(trx, account.id);
      return account;
    });
  }

  async findByName(name: string): Promise<AccountRow | undefined> {
    return this.db.selectFrom('account').selectAll().where('name', '=', name).executeTakeFirst();
  }

  async findById(id: number): Promise<AccountRow | undefined> {
    return this.db.selectFrom('account').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Every account, oldest first, for the operator's `accounts list`. */
  list(): Promise<AccountRow[]> {
    return this.db.selectFrom('account').selectAll().orderBy('id').execute();
  }

  /** Disables or enables an account by name; undefined when no account has that name. */
  async setDisabled(name: string, disabled: boolean): Promise<AccountRow | undefined> {
    return (
      this.db
        .updateTable('account')
        // Disabling twice keeps the first time, so the date says since when.
        .set({ disabled_at: disabled ? sql<Date>`coalesce(disabled_at, now())` : null })
        .where('name', '=', name)
        .returningAll()
        .executeTakeFirst()
    );
  }

  /**
   * DESIGN.md tenancy: `{tenant}.{baseDomain}` names an account; a custom domain mapped to an
   * account reaches it; any other host reaches the default account. A subdomain of the base domain
   * that names no account is null (the caller answers 404), never someone else's account. With a
   * base domain set, only its own names reach the default account (the base domain itself, the
   * public URL's host, an IP address, localhost); any other name is UNKNOWN_HOST, so a forged
   * Host (DNS rebinding, cache poisoning) is refused instead of served.
   */
  async resolveHost(host: string, baseDomain: string | undefined, defaultTenant: string, publicUrl?: string): Promise<HostLookup> {
    const key = host.toLowerCase();
    const cached = this.cachedHost(host);
    if (cached !== undefined) return cached;
    const account = await this.lookupHost(key, baseDomain, defaultTenant, publicUrl);
    if (this.byHost.size > 10_000) this.byHost.clear();
    this.byHost.set(key, { account, at: Date.now() });
    return account;
  }

  private async lookupHost(
    host: string,
    baseDomain: string | undefined,
    defaultTenant: string,
    publicUrl: string | undefined,
  ): Promise<HostLookup> {
    const hostname = host.replace(/:\d+$/, '');
    const base = baseDomain?.replace(/:\d+$/, '');
    if (base && hostname.endsWith(`.${base}`)) {
      const subdomain = hostname.slice(0, -(base.length + 1));
      return (await this.findByName(subdomain)) ?? null;
    }
    const custom = await this.db.selectFrom('account').selectAll().where('custom_domain', '=', hostname).executeTakeFirst();
    if (custom) return custom;
    if (base && !isOwnName(hostname, base, publicUrl)) return UNKNOWN_HOST;
    return (await this.findByName(defaultTenant)) ?? null;
  }

  /** The account of a host if a recent lookup is at hand; undefined when the store must be asked. */
  cachedHost(host: string): HostLookup | undefined {
    const cached = this.byHost.get(host.toLowerCase());
    return cached && Date.now() - cached.at < CACHE_MS ? cached.account : undefined;
  }

  forgetAll(): void {
    this.byHost.clear();
  }

  /** Host lookups are few and cheap to redo: any account's change forgets them all. */
  forgetAccount(): void {
    this.forgetAll();
  }
}

function isOwnName(hostname: string, base: string, publicUrl: string | undefined): boolean {
  const bare = hostname.replace(/^\[(.*)\]$/, '$1');
  return (
    hostname === base ||
    hostname === 'localhost' ||
    isIP(bare) !== 0 ||
    (publicUrl !== undefined && new URL(publicUrl).hostname === hostname)
  );
}
