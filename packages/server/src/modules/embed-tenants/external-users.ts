import { ApiError, badRequest } from '../../http/errors.js';
import type { Executor } from '../../store/executor.js';
import type { AttributeType, ExternalUserRow } from '../../store/schema.js';
import type { GroupService } from '../groups/service.js';
import { attributeTypeLabel, checkAttributeValue, type UserAttributeService } from '../user-attributes/service.js';
import { ExternalUserRepo, type Catalog, type ProfileWrite } from './external-user-repo.js';
import { EmbedTenantRepo } from './repo.js';
import { assertNoDuplicates, attributesNotFound, groupsNotFound } from './rules.js';

export type { Catalog } from './external-user-repo.js';

export interface AttributeInput {
  name: string;
  value: unknown;
}

/** What one call wants an external user to look like; omitted parts are kept as stored. */
export interface ExternalUserChange {
  /** Already normalised (rules.normaliseExternalId). */
  externalId: string;
  profile: ProfileWrite;
  /** Group names per catalog: present replaces the memberships of that catalog (2.7). */
  groups: Partial<Record<Catalog, string[]>>;
  /** Attribute values per catalog: supplied names overwrite, `null` clears (2.6). */
  values: Partial<Record<Catalog, AttributeInput[]>>;
}

/** The same change with every name resolved to an id and every value checked: it can only be written now. */
export interface ResolvedChange {
  externalId: string;
  profile: ProfileWrite;
  groups: Partial<Record<Catalog, number[]>>;
  values: Partial<Record<Catalog, Array<{ attributeId: number; value: unknown }>>>;
}

interface Definition {
  id: number;
  name: string;
  type?: AttributeType;
}

/** Name → definition for one account and embed tenant, looked up once and reused (bulk provisioning). */
export interface Catalogs {
  groups(catalog: Catalog, names: string[]): Promise<Map<string, Definition>>;
  attributes(catalog: Catalog, names: string[]): Promise<Map<string, Definition>>;
}

/**
 * Resolution and writing of external users. Callers run both inside one transaction; the write
 * takes the user's row lock first, so concurrent changes to one user apply one after another,
 * each whole.
 */
export class ExternalUsers {
  constructor(
    private readonly groupService: GroupService,
    private readonly attributeService: UserAttributeService,
    private readonly maxExternalUsers: number,
  ) {}

  catalogs(accountId: number, tenantId: number, db: Executor): Catalogs {
    const tenant = new EmbedTenantRepo(db);
    const byName = (rows: Definition[]) => new Map(rows.map((r) => [r.name, r]));
    return {
      groups: async (catalog, names) =>
        byName(catalog === 'account'
          ? await this.groupService.findByNames(accountId, names, db)
          : await tenant.groupsByNames(accountId, tenantId, names)),
      attributes: async (catalog, names) =>
        byName(catalog === 'account'
          ? await this.attributeService.findByNames(accountId, names, db)
          : await tenant.attributesByNames(accountId, tenantId, names)),
    };
  }

  /** Checks every name and value before anything is written; the first problem is thrown. */
  async resolve(change: ExternalUserChange, catalogs: Catalogs): Promise<ResolvedChange> {
    const resolved: ResolvedChange = { externalId: change.externalId, profile: change.profile, groups: {}, values: {} };
    for (const [catalog, names] of entries(change.groups)) {
      const unique = [...new Set(names)];
      const found = await catalogs.groups(catalog, unique);
      const missing = unique.filter((name) => !found.has(name));
      if (missing.length > 0) throw groupsNotFound(missing);
      resolved.groups[catalog] = unique.map((name) => found.get(name)!.id);
    }
    for (const [catalog, inputs] of entries(change.values)) {
      const names = inputs.map((v) => v.name);
      assertNoDuplicates(names, 'userAttributes');
      const found = await catalogs.attributes(catalog, names);
      if (names.some((name) => !found.has(name))) throw attributesNotFound();
      resolved.values[catalog] = inputs.map(({ name, value }) => {
        const { id, type } = found.get(name)!;
        if (value !== null && !checkAttributeValue(type!, value)) {
          throw badRequest(`User attribute "${name}" has type ${type}: its value must be ${attributeTypeLabel[type!]} or null`);
        }
        return { attributeId: id, value };
      });
    }
    return resolved;
  }

  /** Writes a resolved change; a new user takes one of the account's slots (section 8) or fails. */
  async write(accountId: number, tenantId: number, change: ResolvedChange, db: Executor): Promise<{ user: ExternalUserRow; created: boolean }> {
    const repo = new ExternalUserRepo(db);
    const { inserted, ...user } = await repo.upsert(accountId, tenantId, change.externalId, change.profile);
    if (inserted && !(await repo.takeSlot(accountId, this.maxExternalUsers))) throw this.limitReached();
    for (const [catalog, ids] of entries(change.groups)) await repo.replaceGroups(catalog, accountId, user.id, ids);
    for (const [catalog, values] of entries(change.values)) await repo.setValues(catalog, accountId, user.id, values);
    return { user, created: inserted };
  }

  limitReached() {
    return new ApiError(
      'limit_exceeded',
      `The account has reached its limit of ${this.maxExternalUsers} external users (PLINTH_MAX_EXTERNAL_USERS); ` +
        'new external users cannot be created, existing ones still get sessions',
    );
  }
}

function entries<V>(record: Partial<Record<Catalog, V>>): Array<[Catalog, V]> {
  return (Object.entries(record) as Array<[Catalog, V | undefined]>).filter((e): e is [Catalog, V] => e[1] !== undefined);
}
