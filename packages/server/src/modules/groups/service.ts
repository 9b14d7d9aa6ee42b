import type { Kysely, Updateable } from 'kysely';
import { toIso } from '../../http/common-schemas.js';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import { byId, decodeCursor, pageSize, toPage, type Page, type PageQuery } from '../../http/pagination.js';
import { isUniqueViolation } from '../../store/executor.js';
import { transaction } from '../../store/transaction.js';
import type { Database, UserGroupRow, UserGroupTable } from '../../store/schema.js';
import { userNotFound, type UserRecord, type UserService } from '../users/service.js';
import { GroupRepo, type GroupSearch } from './repo.js';

const GROUPS = byId('user-groups');
const MEMBERS = byId('user-group-members');

export interface GroupRecord {
  id: number;
  /** SCIM's string id of the group. */
  uuid: string;
  name: string;
  description: string | null;
  externalId: string | null;
  userCount: number;
  /** Bumped on every change, memberships included; SCIM's ETag. */
  version: number;
  createdAt: string;
  updatedAt: string;
}

export interface NewGroup {
  name: string;
  description?: string | null;
  externalId?: string | null;
}
export type GroupChanges = Partial<NewGroup>;

export const MAX_GROUP_NAME = 200;

/**
 * Tenant-wide groups of internal users. Names are unique per account ignoring case (SCIM's
 * displayName is caseExact false), but looking a group up by name is exact. Member
 * ids are checked against the account through the users service: an id of another account is
 * reported exactly like an unknown one. Methods take the account first and an optional executor last.
 */
export class GroupService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly users: UserService,
  ) {}

  async get(accountId: number, id: number): Promise<GroupRecord> {
    const row = await new GroupRepo(this.db).find(accountId, id);
    if (!row) throw groupNotFound(id);
    return toRecord(row);
  }

  async findByUuid(accountId: number, uuid: string): Promise<GroupRecord | undefined> {
    if (!UUID.test(uuid)) return undefined;
    const row = await new GroupRepo(this.db).findByUuid(accountId, uuid);
    return row && toRecord(row);
  }

  /** The groups among `names` that exist (any order); callers report the missing ones. */
  async findByNames(accountId: number, names: string[]): Promise<GroupRecord[]> {
    return (await new GroupRepo(this.db).findByNames(accountId, [...new Set(names)])).map(toRecord);
  }

  /** The group, if any, whose name differs from `name` at most in case: the one that would make it taken. */
  async findNameHolder(accountId: number, name: string): Promise<{ id: number; name: string } | undefined> {
    return (await new GroupRepo(this.db).holdersOfName(accountId, name))[0];
  }

  /** Like findByNames, but only id and name, for callers that resolve names in bulk or per request. */
  async idsByNames(accountId: number, names: string[]): Promise<Array<{ id: number; name: string }>> {
    return new GroupRepo(this.db).idsByNames(accountId, [...new Set(names)]);
  }

  async list(accountId: number, query: PageQuery): Promise<Page<GroupRecord>> {
    const rows = await new GroupRepo(this.db).list(accountId, decodeCursor(GROUPS, query.after)?.id, pageSize(query) + 1);
    return toPage(GROUPS, rows, query, toRecord);
  }

  /** Offset paging with a total, for SCIM's `startIndex`/`count`/`totalResults`. */
  async search(accountId: number, search: GroupSearch): Promise<{ total: number; items: GroupRecord[] }> {
    const { rows, total } = await new GroupRepo(this.db).search(accountId, search);
    return { total, items: rows.map(toRecord) };
  }

  async groupsOfUser(accountId: number, userId: number): Promise<GroupRecord[]> {
    return (await new GroupRepo(this.db).ofUser(accountId, userId)).map(toRecord);
  }

  async create(accountId: number, input: NewGroup): Promise<GroupRecord> {
    const name = checkName(input.name);
    return transaction(this.db, async (trx) => {
      const repo = new GroupRepo(trx);
      // Checked first so a caller's transaction is not aborted by the unique index in the usual case.
      const holder = (await repo.holdersOfName(accountId, name))[0];
      if (holder) throw nameTaken(holder.name);
      const { id } = await uniqueName(name, () =>
        repo.insert({ account_id: accountId, name, description: input.description ?? null, external_id: input.externalId ?? null }),
      );
      return this.get(accountId, id);
    });
  }

  async update(accountId: number, id: number, input: GroupChanges): Promise<GroupRecord> {
    const changes: Updateable<UserGroupTable> = {};
    if (input.name !== undefined) changes.name = checkName(input.name);
    if (input.description !== undefined) changes.description = input.description;
    if (input.externalId !== undefined) changes.external_id = input.externalId;
    return transaction(this.db, async (trx) => {
      const repo = new GroupRepo(trx);
      const holder = changes.name === undefined ? undefined : (await repo.holdersOfName(accountId, changes.name)).find((g) => g.id !== id);
      if (holder) throw nameTaken(holder.name);
      const updated = await uniqueName(input.name ?? '', () => repo.update(accountId, id, changes));
      if (!updated) throw groupNotFound(id);
      return this.get(accountId, id);
    });
  }

  /** Memberships go with the group. */
  async delete(accountId: number, id: number): Promise<void> {
    if (!(await new GroupRepo(this.db).delete(accountId, id))) throw groupNotFound(id);
  }

  /** Adds users to the group; ones already in it stay, so repeating a call changes nothing. */
  async addMembers(accountId: number, groupId: number, userIds: number[]): Promise<void> {
    await transaction(this.db, async (trx) => {
      const repo = new GroupRepo(trx);
      await this.get(accountId, groupId);
      const ids = await this.checkUsers(accountId, userIds);
      await repo.addMembers(
        accountId,
        ids.map((userId) => ({ groupId, userId })),
      );
      await repo.touch(accountId, groupId);
    });
  }

  /** Idempotent: removing a user who is not a member succeeds; an unknown group or user is 404. */
  async removeMember(accountId: number, groupId: number, userId: number): Promise<void> {
    await transaction(this.db, async (trx) => {
      const repo = new GroupRepo(trx);
      await this.get(accountId, groupId);
      if (!(await this.users.find(accountId, userId))) throw userNotFound(userId);
      if (await repo.removeMember(accountId, groupId, userId)) await repo.touch(accountId, groupId);
    });
  }

  /** Replaces the group's members with exactly `userIds` (SCIM PUT of a group). */
  async setMembers(accountId: number, groupId: number, userIds: number[]): Promise<void> {
    await transaction(this.db, async (trx) => {
      const repo = new GroupRepo(trx);
      await this.get(accountId, groupId);
      const ids = await this.checkUsers(accountId, userIds);
      await repo.removeMembersExcept(accountId, groupId, ids);
      await repo.addMembers(
        accountId,
        ids.map((userId) => ({ groupId, userId })),
      );
      await repo.touch(accountId, groupId);
    });
  }

  /** Replaces the user's memberships with exactly `groupIds`; empty clears them (section 2.7). */
  async setUserGroups(accountId: number, userId: number, groupIds: number[]): Promise<void> {
    await transaction(this.db, async (trx) => {
      const repo = new GroupRepo(trx);
      if (!(await this.users.find(accountId, userId))) throw userNotFound(userId);
      const wanted = [...new Set(groupIds)];
      const found = (await repo.many(accountId, wanted)).map((g) => g.id);
      const missing = wanted.filter((id) => !found.includes(id));
      if (missing.length > 0) throw badRequest(`Groups not found: ${missing.join(', ')}`);
      await repo.removeUserFromGroupsExcept(accountId, userId, wanted);
      await repo.addMembers(
        accountId,
        wanted.map((groupId) => ({ groupId, userId })),
      );
    });
  }

  /** Every member, ordered by user id. */
  async listMembers(accountId: number, groupId: number): Promise<UserRecord[]> {
    await this.get(accountId, groupId);
    return this.users.getMany(accountId, await new GroupRepo(this.db).memberIds(accountId, groupId));
  }

  async pageMembers(accountId: number, groupId: number, query: PageQuery): Promise<Page<UserRecord>> {
    await this.get(accountId, groupId);
    const ids = await new GroupRepo(this.db).memberIds(accountId, groupId, decodeCursor(MEMBERS, query.after)?.id, pageSize(query) + 1);
    return toPage(MEMBERS, await this.users.getMany(accountId, ids), query, (user) => user);
  }

  private async checkUsers(accountId: number, userIds: number[]): Promise<number[]> {
    const wanted = [...new Set(userIds)];
    const found = new Set((await this.users.getMany(accountId, wanted)).map((u) => u.id));
    const missing = wanted.filter((id) => !found.has(id));
    if (missing.length > 0) throw badRequest(`Users not found: ${missing.join(', ')}`);
    return wanted;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const groupNotFound = (id: number | string) => notFound(`Group ${id} not found`);

const nameTaken = (name: string) => conflict(`A group named "${name}" already exists`);

function checkName(name: string): string {
  if (name.length < 1 || name.length > MAX_GROUP_NAME) throw badRequest(`Group name must be 1 to ${MAX_GROUP_NAME} characters`);
  return name;
}

async function uniqueName<T>(name: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(name);
    throw error;
  }
}

type GroupRow = UserGroupRow & { user_count: number | string | null };

function toRecord(row: GroupRow): GroupRecord {
  return {
    id: row.id,
    uuid: row.uuid,
    name: row.name,
    description: row.description,
    externalId: row.external_id,
    userCount: Number(row.user_count ?? 0),
    version: row.version,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}
