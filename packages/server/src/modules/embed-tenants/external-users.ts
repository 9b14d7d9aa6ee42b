import { ApiError, badRequest } from '../../http/errors.js';
import type { Executor } from '../../store/executor.js';
import type { AttributeType } from '../../store/schema.js';
import { attributeTypeLabel, checkAttributeValue } from '../user-attributes/service.js';
import type { Catalog, ProfileWrite } from './external-user-repo.js';
import { ExternalUserWrites, type CatalogWrite, type UpsertedUser } from './external-user-writes.js';
import type { EmbedLookups } from './lookups.js';
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
  values: Partial<Record<Catalog, Array<{ attributeId: number; name: string; value: unknown }>>>;
}

/** A user as a write left it, in the catalog the caller asked about (for an embed token's claims). */
export interface WrittenState {
  /** The stored memberships' names, read only when the write left them as they were (groups omitted). */
  groups: string[];
  values: Array<{ name: string; value: unknown }>;
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
    private readonly lookups: EmbedLookups,
    private readonly maxExternalUsers: number,
  ) {}

  catalogs(accountId: number, tenantId: number, db: Executor): Catalogs {
    const tenant = new EmbedTenantRepo(db);
    const byName = (rows: Definition[]) => new Map(rows.map((r) => [r.name, r]));
    return {
      groups: async (catalog, names) =>
        catalog === 'account' ? this.lookups.groups(accountId, names) : byName(await tenant.groupsByNames(accountId, tenantId, names)),
      attributes: async (catalog, names) =>
        catalog === 'account'
          ? this.lookups.attributes(accountId, names)
          : byName(await tenant.attributesByNames(accountId, tenantId, names)),
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
        return { attributeId: id, name, value };
      });
    }
    return resolved;
  }

  /**
   * Writes a resolved change: the user's row lock first, then a slot if the user is new or an
   * ephemeral one becomes kept (section 8), then one statement per catalog written. With
   * `ttlSeconds` the user is ephemeral: created without a slot, or given a new end if it already
   * is; a kept user cannot become ephemeral. With `readBack`, also returns the user's state in
   * that catalog as this write leaves it.
   */
  async write(accountId: number, tenantId: number, change: ResolvedChange, db: Executor, readBack?: Catalog, ttlSeconds?: number) {
    const writes = new ExternalUserWrites(db);
    const rows = [{ externalId: change.externalId, ...change.profile, ttlSeconds }];
    const [{ inserted, expired: _expired, ...user }] = (await writes.recreateExpired(
      accountId,
      tenantId,
      rows,
      await writes.upsert(accountId, tenantId, rows),
    )) as [UpsertedUser];
    if (ttlSeconds === undefined) {
      const takesSlot = inserted || user.expires_at !== null;
      if (takesSlot && (await writes.takeSlots(accountId, 1, this.maxExternalUsers)) === 0) throw this.limitReached();
      if (!inserted && user.expires_at !== null) user.expires_at = await writes.setExpiry(accountId, [user.id], null);
    } else if (!inserted) {
      if (user.expires_at === null) {
        throw badRequest(
          `externalId "${change.externalId}" names an external user that is kept: isEphemeral applies only to a new or an ephemeral user`,
        );
      }
      user.expires_at = await writes.setExpiry(accountId, [user.id], ttlSeconds);
    }
    let state: WrittenState | undefined;
    for (const catalog of ['account', 'tenant'] as const) {
      const write = catalogWrite([{ id: user.id, change }], catalog);
      if (catalog !== readBack && write.groups.length + write.values.length === 0) continue;
      const read = catalog === readBack ? { userId: user.id, groups: !change.groups[catalog] } : undefined;
      const stored = await writes.apply(catalog, accountId, write, read);
      if (read) state = writtenState(change, catalog, stored);
    }
    return { user, created: inserted, state };
  }

  /**
   * Writes many resolved changes with distinct externalIds, set-based, as kept users. New users,
   * and ephemeral ones becoming kept, take slots in the order given; new users past the limit are
   * removed again, ephemeral ones stay as they were, and both are reported, as if each change had
   * been sent alone. Returns, per change, its user or its error.
   */
  async writeMany(accountId: number, tenantId: number, changes: ResolvedChange[], db: Executor) {
    const writes = new ExternalUserWrites(db);
    const profiles = changes.map((c) => ({ externalId: c.externalId, ...c.profile }));
    const rows = await writes.recreateExpired(accountId, tenantId, profiles, await writes.upsert(accountId, tenantId, profiles));
    const byId = new Map(rows.map((r) => [r.external_id, r]));
    const needSlot = changes.filter((c) => byId.get(c.externalId)!.inserted || byId.get(c.externalId)!.expires_at !== null);
    const granted = await writes.takeSlots(accountId, needSlot.length, this.maxExternalUsers);
    const refused = new Set(needSlot.slice(granted).map((c) => c.externalId));
    await writes.deleteInserted(
      accountId,
      [...refused]
        .map((e) => byId.get(e)!)
        .filter((u) => u.inserted)
        .map((u) => u.id),
    );
    const kept = changes.filter((c) => !refused.has(c.externalId)).map((change) => ({ id: byId.get(change.externalId)!.id, change }));
    const nowKept = needSlot
      .slice(0, granted)
      .map((c) => byId.get(c.externalId)!)
      .filter((u) => !u.inserted);
    await writes.setExpiry(
      accountId,
      nowKept.map((u) => u.id),
      null,
    );
    for (const user of nowKept) user.expires_at = null;
    for (const catalog of ['account', 'tenant'] as const) {
      const write = catalogWrite(kept, catalog);
      if (write.groups.length + write.values.length > 0) await writes.apply(catalog, accountId, write);
    }
    return changes.map((c) => (refused.has(c.externalId) ? { error: this.limitReached() } : { user: byId.get(c.externalId)! }));
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

function catalogWrite(users: Array<{ id: number; change: ResolvedChange }>, catalog: Catalog): CatalogWrite {
  return {
    groups: users.flatMap(({ id, change }) => (change.groups[catalog] ? [{ userId: id, groupIds: change.groups[catalog] }] : [])),
    values: users.flatMap(({ id, change }) =>
      (change.values[catalog] ?? []).map((v) => ({ userId: id, attributeId: v.attributeId, value: v.value })),
    ),
  };
}

/** Final values: the stored ones the write did not name, plus the named ones it did not clear. */
function writtenState(change: ResolvedChange, catalog: Catalog, stored: WrittenState): WrittenState {
  const supplied = (change.values[catalog] ?? []).filter((v) => v.value !== null).map(({ name, value }) => ({ name, value }));
  return { groups: stored.groups, values: [...stored.values, ...supplied] };
}
