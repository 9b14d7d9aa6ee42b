import type { AttributeType } from '../../store/schema.js';
import type { DeploymentService } from '../deployments/service.js';
import type { GroupService } from '../groups/service.js';
import type { TenantSettings, TenantSettingsService } from '../tenant-settings/service.js';
import type { UserAttributeService } from '../user-attributes/service.js';

/** A backstop only: every change that matters empties the account's entries at once (see `forgetAccount`). */
const CACHE_MS = 5_000;
const MAX_ACCOUNTS = 10_000;

export interface NamedGroup {
  id: number;
  name: string;
}
export interface NamedAttribute extends NamedGroup {
  type: AttributeType;
}

interface AccountEntry {
  until: number;
  settings?: TenantSettings;
  deployments: Set<number>;
  groups: Map<string, NamedGroup>;
  attributes: Map<string, NamedAttribute>;
}

export interface LookupServices {
  deployments: DeploymentService;
  tenantSettings: TenantSettingsService;
  groups: GroupService;
  userAttributes: UserAttributeService;
}

/**
 * What every session asks and almost never changes: the deployment exists, the account's settings,
 * the ids of tenant-wide group and attribute names. Answers come from the owning services and are
 * kept per account until a write in this process or a NOTIFY from any process says they may have
 * changed (see EMBED_LOOKUPS_CACHE). Only what exists is remembered, so a name or deployment created a moment ago is never
 * missed. A lookup that was under way when the account was forgotten is not kept.
 */
export class EmbedLookups {
  private readonly accounts = new Map<number, AccountEntry>();
  private generation = 0;

  constructor(private readonly services: LookupServices) {}

  async deploymentExists(accountId: number, id: number): Promise<boolean> {
    if (this.entry(accountId).deployments.has(id)) return true;
    const started = this.generation;
    const found = (await this.services.deployments.find(accountId, id)) !== undefined;
    if (found) this.keep(accountId, started, (e) => e.deployments.add(id));
    return found;
  }

  async settings(accountId: number): Promise<TenantSettings> {
    const cached = this.entry(accountId).settings;
    if (cached) return cached;
    const started = this.generation;
    const settings = await this.services.tenantSettings.get(accountId);
    this.keep(accountId, started, (e) => (e.settings = settings));
    return settings;
  }

  groups(accountId: number, names: string[]): Promise<Map<string, NamedGroup>> {
    return this.named(
      accountId,
      names,
      (e) => e.groups,
      (missing) => this.services.groups.idsByNames(accountId, missing),
    );
  }

  attributes(accountId: number, names: string[]): Promise<Map<string, NamedAttribute>> {
    return this.named(
      accountId,
      names,
      (e) => e.attributes,
      (missing) => this.services.userAttributes.findByNames(accountId, missing),
    );
  }

  forgetAccount(accountId: number): void {
    this.generation++;
    this.accounts.delete(accountId);
  }

  forgetAll(): void {
    this.generation++;
    this.accounts.clear();
  }

  private async named<T extends NamedGroup>(
    accountId: number,
    names: string[],
    pick: (entry: AccountEntry) => Map<string, T>,
    lookup: (missing: string[]) => Promise<T[]>,
  ): Promise<Map<string, T>> {
    const known = pick(this.entry(accountId));
    const missing = [...new Set(names.filter((name) => !known.has(name)))];
    const started = this.generation;
    const found = missing.length > 0 ? await lookup(missing) : [];
    this.keep(accountId, started, (e) => {
      for (const row of found) pick(e).set(row.name, row);
    });
    const result = new Map<string, T>();
    for (const row of found) result.set(row.name, row);
    for (const name of names) if (known.has(name)) result.set(name, known.get(name)!);
    return result;
  }

  private entry(accountId: number): AccountEntry {
    const entry = this.accounts.get(accountId);
    if (entry && entry.until > Date.now()) return entry;
    if (this.accounts.size >= MAX_ACCOUNTS) this.accounts.clear();
    const fresh: AccountEntry = { until: Date.now() + CACHE_MS, deployments: new Set(), groups: new Map(), attributes: new Map() };
    this.accounts.set(accountId, fresh);
    return fresh;
  }

  private keep(accountId: number, started: number, update: (entry: AccountEntry) => void): void {
    if (this.generation === started) update(this.entry(accountId));
  }
}
