import type { Kysely } from 'kysely';
import type { AccountRow, Database } from '../../store/schema.js';

const CACHE_MS = 5_000;

/**
 * Accounts (tenants). Host lookups are cached for a few seconds because every request makes one;
 * an account's name and domain change rarely and the cache is per process only.
 */
export class AccountService {
  private readonly byHost = new Map<string, { account: AccountRow | null; at: number }>();

  constructor(private readonly db: Kysely<Database>) {}

  async create(name: string, trx: Kysely<Database> = this.db): Promise<AccountRow> {
    const account = await trx.insertInto('account').values({ name }).returningAll().executeTakeFirstOrThrow();
    await trx.insertInto('tenant_settings').values({ account_id: account.id }).execute();
    return account;
  }

  async findByName(name: string): Promise<AccountRow | undefined> {
    return this.db.selectFrom('account').selectAll().where('name', '=', name).executeTakeFirst();
  }

  async findById(id: number): Promise<AccountRow | undefined> {
    return this.db.selectFrom('account').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * DESIGN.md tenancy: `{tenant}.{baseDomain}` names an account; a custom domain mapped to an
   * account reaches it; any other host reaches the default account. A subdomain of the base domain
   * that names no account is null (the caller answers 404), never someone else's account.
   */
  async resolveHost(host: string, baseDomain: string | undefined, defaultTenant: string): Promise<AccountRow | null> {
    const key = host.toLowerCase();
    const cached = this.cachedHost(host);
    if (cached !== undefined) return cached;
    const account = await this.lookupHost(key, baseDomain, defaultTenant);
    if (this.byHost.size > 10_000) this.byHost.clear();
    this.byHost.set(key, { account, at: Date.now() });
    return account;
  }

  private async lookupHost(host: string, baseDomain: string | undefined, defaultTenant: string) {
    const hostname = host.replace(/:\d+$/, '');
    const base = baseDomain?.replace(/:\d+$/, '');
    if (base && hostname.endsWith(`.${base}`)) {
      const subdomain = hostname.slice(0, -(base.length + 1));
      return (await this.findByName(subdomain)) ?? null;
    }
    const custom = await this.db
      .selectFrom('account')
      .selectAll()
      .where('custom_domain', '=', hostname)
      .executeTakeFirst();
    return custom ?? (await this.findByName(defaultTenant)) ?? null;
  }

  /** The account of a host if a recent lookup is at hand; undefined when the store must be asked. */
  cachedHost(host: string): AccountRow | null | undefined {
    const cached = this.byHost.get(host.toLowerCase());
    return cached && Date.now() - cached.at < CACHE_MS ? cached.account : undefined;
  }

  forgetCachedHosts(): void {
    this.byHost.clear();
  }
}
