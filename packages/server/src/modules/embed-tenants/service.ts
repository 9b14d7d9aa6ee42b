import type { Kysely } from 'kysely';
import { toIso } from '../../http/common-schemas.js';
import { badRequest, notFound } from '../../http/errors.js';
import { byId, decodeCursor, pageSize, toPage, type PageQuery } from '../../http/pagination.js';
import type { Executor } from '../../store/executor.js';
import type { Database, EmbedTenantRow, ExternalUserRow } from '../../store/schema.js';
import { attributeTypeLabel, parseDefaultValue } from '../user-attributes/service.js';
import { ExternalUserRepo } from './external-user-repo.js';
import { ExternalUsers } from './external-users.js';
import type { EmbedLookups } from './lookups.js';
import { mintForExistingUser, type ExistingUserSession } from './page-view.js';
import { EmbedTenantRepo, type AttributeDefinitionRow } from './repo.js';
import { assertNoDuplicates, cannotChangeType, EMBED_TENANT_NAME, EMBED_TENANT_NAME_RULE } from './rules.js';

const GROUPS = byId('embed-tenant-groups');
const ATTRIBUTES = byId('embed-tenant-attributes');
const USERS = byId('embed-tenant-users');

/** The account as embedding sees it: its id, and its name, which is also its default embed tenant's. */
export interface AccountRef {
  id: number;
  name: string;
}

export interface Definitions {
  groupDefinitions?: Array<{ name: string; description?: string | undefined }> | undefined;
  userAttributeDefinitions?: AttributeDefinitionRow[] | undefined;
}

export interface EmbedTenantUserView {
  externalId: string;
  email: string | null;
  userProfile: { displayName: string | null; picture: string | null };
  groups: string[];
  tenantGroups: string[];
  userAttributes: Array<{ name: string; value: unknown }>;
  tenantUserAttributes: Array<{ name: string; value: unknown }>;
  createdAt: string;
  updatedAt: string;
  /** Ephemeral users only: when the user stops existing. */
  expiresAt: string | null;
}

/**
 * Embed tenants (sections 2.8, 2.9, 4.4): each holds its own groups and attributes, apart from the
 * account's tenant-wide catalogs, and its own external users. Every account has a default embed
 * tenant named after the account, created on first use like any other.
 */
export class EmbedTenantService {
  readonly externalUsers: ExternalUsers;
  private readonly knownTenants = new Map<string, EmbedTenantRow>();

  constructor(
    private readonly db: Kysely<Database>,
    readonly lookups: EmbedLookups,
    maxExternalUsers: number,
  ) {
    this.externalUsers = new ExternalUsers(lookups, maxExternalUsers);
  }

  /** The named embed tenant (the default one when `name` is omitted), created when `create` is set. */
  async tenant(account: AccountRef, name: string | undefined, options: { create: boolean }) {
    const tenantName = name ?? account.name;
    const valid = tenantName === account.name || EMBED_TENANT_NAME.test(tenantName);
    const repo = new EmbedTenantRepo(this.db);
    if (!options.create) {
      const row = valid ? await repo.findTenant(account.id, tenantName) : undefined;
      if (!row) throw notFound(`Embed tenant "${tenantName}" not found`);
      return row;
    }
    if (!valid) throw badRequest(EMBED_TENANT_NAME_RULE);
    const key = `${account.id}:${tenantName}`;
    const known = this.knownTenants.get(key);
    if (known) return known;
    const found = await repo.findTenant(account.id, tenantName);
    if (!found) return repo.ensureTenant(account.id, tenantName);
    // Only committed rows are remembered; embed tenants are never deleted except with their account.
    if (this.knownTenants.size >= 10_000) this.knownTenants.clear();
    this.knownTenants.set(key, found);
    return found;
  }

  /**
   * A known user's page view in one statement (page-view.ts): false when the user is new, changed
   * meanwhile or ephemeral, and the caller must take the locking path.
   */
  mintPageView(session: ExistingUserSession, db: Executor = this.db): Promise<boolean> {
    return mintForExistingUser(db, session);
  }

  /** The embed tenant if this process has seen it committed: a session can then be minted without creating it. */
  knownTenant(account: AccountRef, name: string | undefined): EmbedTenantRow | undefined {
    return this.knownTenants.get(`${account.id}:${name ?? account.name}`);
  }

  /**
   * Sections 2.8 and 2.9: upserts into the embed tenant's scope only. Missing names are inserted
   * first and every named row is then locked, so a concurrent definer of the same names waits and
   * a type clash is seen whoever inserted first; the caller's transaction then rolls back whole.
   */
  async applyDefinitions(accountId: number, tenantId: number, defs: Definitions, db: Executor): Promise<void> {
    const repo = new EmbedTenantRepo(db);
    const attributes = [...(defs.userAttributeDefinitions ?? [])].sort(byName);
    const groups = [...(defs.groupDefinitions ?? [])].sort(byName);
    assertNoDuplicates(
      attributes.map((a) => a.name),
      'userAttributeDefinitions',
    );
    assertNoDuplicates(
      groups.map((g) => g.name),
      'groupDefinitions',
    );
    for (const a of attributes) {
      if (a.defaultValue !== undefined && parseDefaultValue(a.type, a.defaultValue) === undefined) {
        throw badRequest(`defaultValue of user attribute "${a.name}" must be ${attributeTypeLabel[a.type]} for type ${a.type}`);
      }
    }
    if (attributes.length > 0) {
      await repo.insertMissingAttributes(accountId, tenantId, attributes);
      const stored = new Map(
        (
          await repo.attributesByNames(
            accountId,
            tenantId,
            attributes.map((a) => a.name),
            true,
          )
        ).map((r) => [r.name, r]),
      );
      if (attributes.some((a) => stored.get(a.name)!.type !== a.type)) throw cannotChangeType();
      for (const a of attributes) {
        const row = stored.get(a.name)!;
        const changes: { display_name?: string; default_value?: string; description?: string } = {};
        if (a.displayName !== undefined && a.displayName !== row.display_name) changes.display_name = a.displayName;
        if (a.defaultValue !== undefined && a.defaultValue !== row.default_value) changes.default_value = a.defaultValue;
        if (a.description !== undefined && a.description !== row.description) changes.description = a.description;
        if (Object.keys(changes).length > 0) await repo.updateAttribute(accountId, row.id, changes);
      }
    }
    if (groups.length > 0) {
      // 2.9: never cleared, so an empty description says nothing, as an omitted one does.
      const described = (g: { description?: string | undefined }) => (g.description === '' ? undefined : g.description);
      await repo.insertMissingGroups(
        accountId,
        tenantId,
        groups.map((g) => ({ name: g.name, description: described(g) ?? null })),
      );
      for (const g of groups) {
        const description = described(g);
        if (description !== undefined) await repo.updateGroupDescription(accountId, tenantId, g.name, description);
      }
    }
  }

  async listGroups(account: AccountRef, tenantName: string, query: PageQuery) {
    const tenant = await this.tenant(account, tenantName, { create: false });
    const rows = await new EmbedTenantRepo(this.db).listGroups(
      account.id,
      tenant.id,
      decodeCursor(GROUPS, query.after)?.id,
      pageSize(query) + 1,
    );
    return toPage(GROUPS, rows, query, (r) => ({
      id: r.id,
      name: r.name,
      description: r.description,
      userCount: Number(r.user_count ?? 0),
    }));
  }

  async listAttributes(account: AccountRef, tenantName: string, query: PageQuery) {
    const tenant = await this.tenant(account, tenantName, { create: false });
    const rows = await new EmbedTenantRepo(this.db).listAttributes(
      account.id,
      tenant.id,
      decodeCursor(ATTRIBUTES, query.after)?.id,
      pageSize(query) + 1,
    );
    return toPage(ATTRIBUTES, rows, query, (r) => ({
      id: r.id,
      name: r.name,
      type: r.type,
      displayName: r.display_name,
      defaultValue: r.default_value,
      description: r.description,
    }));
  }

  /** Memberships go with the group (foreign keys cascade). */
  async deleteGroup(account: AccountRef, tenantName: string, id: number): Promise<void> {
    const tenant = await this.tenant(account, tenantName, { create: false });
    if (!(await new EmbedTenantRepo(this.db).deleteGroup(account.id, tenant.id, id))) {
      throw notFound(`Group ${id} not found in embed tenant "${tenant.name}"`);
    }
  }

  /** Values go with the attribute, and the name is free again for any type (2.8 rule 1). */
  async deleteAttribute(account: AccountRef, tenantName: string, id: number): Promise<void> {
    const tenant = await this.tenant(account, tenantName, { create: false });
    if (!(await new EmbedTenantRepo(this.db).deleteAttribute(account.id, tenant.id, id))) {
      throw notFound(`User attribute ${id} not found in embed tenant "${tenant.name}"`);
    }
  }

  async listUsers(account: AccountRef, tenantName: string, query: PageQuery) {
    const tenant = await this.tenant(account, tenantName, { create: false });
    const rows = await new ExternalUserRepo(this.db).list(account.id, tenant.id, decodeCursor(USERS, query.after)?.id, pageSize(query) + 1);
    const views = await this.views(account.id, rows.slice(0, pageSize(query)), this.db);
    return toPage(USERS, rows, query, (row) => views.get(row.id)!);
  }

  async getUser(account: AccountRef, tenantName: string, externalId: string): Promise<EmbedTenantUserView> {
    const tenant = await this.tenant(account, tenantName, { create: false });
    const normalised = externalId.trim().toLowerCase();
    const row = await new ExternalUserRepo(this.db).find(account.id, tenant.id, normalised);
    if (!row) throw notFound(`External user "${normalised}" not found in embed tenant "${tenant.name}"`);
    return (await this.views(account.id, [row], this.db)).get(row.id)!;
  }

  async userView(accountId: number, id: number, db: Executor): Promise<EmbedTenantUserView> {
    const row = (await new ExternalUserRepo(db).findById(accountId, id))!;
    return (await this.views(accountId, [row], db)).get(id)!;
  }

  private async views(accountId: number, rows: ExternalUserRow[], db: Executor): Promise<Map<number, EmbedTenantUserView>> {
    const repo = new ExternalUserRepo(db);
    const ids = rows.map((r) => r.id);
    // Sequential: inside a transaction they share one connection anyway.
    const groups = await repo.groupNames('account', accountId, ids);
    const tenantGroups = await repo.groupNames('tenant', accountId, ids);
    const values = await repo.attributeValues('account', accountId, ids);
    const tenantValues = await repo.attributeValues('tenant', accountId, ids);
    return new Map(
      rows.map((row) => [
        row.id,
        {
          externalId: row.external_id,
          email: row.email,
          userProfile: { displayName: row.display_name, picture: row.picture },
          groups: groups.get(row.id) ?? [],
          tenantGroups: tenantGroups.get(row.id) ?? [],
          userAttributes: values.get(row.id) ?? [],
          tenantUserAttributes: tenantValues.get(row.id) ?? [],
          createdAt: toIso(row.created_at),
          updatedAt: toIso(row.updated_at),
          expiresAt: row.expires_at === null ? null : toIso(row.expires_at),
        },
      ]),
    );
  }
}

export type { EmbedTenantRow };

const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
