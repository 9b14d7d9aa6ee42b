import type { Kysely } from 'kysely';
import type { Database, UserGroupRow } from '../../store/schema.js';
import type { GroupService } from '../groups/service.js';
import { notFound } from '../../http/errors.js';
import { transaction } from '../../store/transaction.js';
import { resourceTypes } from './attributes.js';
import { invalidValue, uniqueness, URN } from './errors.js';
import { requireSchemas } from './request-schemas.js';
import { checkIfMatch } from './etag.js';
import { listResponse, planList, type ListParams, type PlannedList } from './list-params.js';
import { toScimGroup, type ScimResource } from './mappers.js';
import { applyPatch, type Doc, type PatchOperation, type PatchTarget } from './patch.js';
import { ScimQueryRepo, groupTarget, type MemberRow } from './query-repo.js';
import type { Precondition, ScimContext } from './user-service.js';

interface GroupDoc extends Doc {
  displayName?: string;
  externalId?: string;
  members?: Array<{ value: string }>;
}

export const groupNotFound = (id: string) => notFound(`Group ${id} not found`);

/**
 * SCIM Groups as a projection of the account's tenant-wide groups; members are internal users.
 * Writes go through the groups service inside one transaction.
 */
export class ScimGroupService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly groups: GroupService,
  ) {}

  async get(ctx: ScimContext, id: string, withMembers = true) {
    const repo = new ScimQueryRepo(this.db);
    const row = await repo.findGroup(ctx.accountId, id);
    if (!row) throw groupNotFound(id);
    const members = withMembers ? await repo.members(ctx.accountId, [row.id]) : undefined;
    return { resource: toScimGroup(row, members, ctx), version: row.version };
  }

  async list(ctx: ScimContext, params: ListParams) {
    const plan = planList(params, groupTarget);
    const { total, resources } = await this.page(ctx, plan);
    return listResponse(resources, total, plan.startIndex);
  }

  async page(ctx: ScimContext, plan: PlannedList): Promise<{ total: number; resources: ScimResource[] }> {
    const repo = new ScimQueryRepo(this.db);
    const { total, rows } = await repo.listGroups(ctx.accountId, plan.query);
    // Entra ID lists with excludedAttributes=members; a large group's members are then never read.
    const members = plan.projection.wants('members')
      ? await repo.members(
          ctx.accountId,
          rows.map((r) => r.id),
        )
      : undefined;
    const resources = rows.map((row) => {
      const own = members?.filter((m) => m.group_id === row.id);
      return plan.projection.apply(toScimGroup(row, own, ctx));
    });
    return { total, resources };
  }

  async create(ctx: ScimContext, body: Record<string, unknown>): Promise<ScimResource> {
    requireSchemas(body, URN.group);
    const doc = applyPatch({}, [{ op: 'replace', value: body }], this.target(undefined, [], ctx), 'resource') as GroupDoc;
    const name = checkDisplayName(doc);
    return transaction(this.db, async (trx) => {
      await this.assertUnique(ctx, name, undefined);
      const memberIds = await this.memberIds(ctx, doc, trx);
      const group = await this.groups.create(ctx.accountId, { name, externalId: doc.externalId ?? null });
      if (memberIds.length > 0) await this.groups.setMembers(ctx.accountId, group.id, memberIds);
      return (await this.get(ctx, group.uuid, true)).resource;
    });
  }

  /** PUT: `members` left out of the body means no members, as RFC 7644 §3.5.1 replaces the whole resource. */
  async replace(ctx: ScimContext, id: string, body: Record<string, unknown>, pre: Precondition) {
    requireSchemas(body, URN.group);
    return this.modify(
      ctx,
      id,
      pre,
      (row, members) =>
        applyPatch({ members: [] }, [{ op: 'replace', value: body }], this.target(row, members, ctx), 'resource') as GroupDoc,
    );
  }

  async patch(ctx: ScimContext, id: string, operations: PatchOperation[], pre: Precondition) {
    return this.modify(ctx, id, pre, (row, members) => {
      const doc: GroupDoc = { displayName: row.name, members: members.map((m) => ({ value: m.uuid })) };
      if (row.external_id !== null) doc.externalId = row.external_id;
      return applyPatch(doc, operations, this.target(row, members, ctx)) as GroupDoc;
    });
  }

  async delete(ctx: ScimContext, id: string, pre: Precondition): Promise<void> {
    await transaction(this.db, async (trx) => {
      const row = await new ScimQueryRepo(trx).findGroup(ctx.accountId, id, true);
      if (!row) throw groupNotFound(id);
      checkIfMatch(pre.ifMatch, row.version);
      await this.groups.delete(ctx.accountId, row.id);
    });
  }

  get resourceType() {
    return resourceTypes.Group;
  }

  private async modify(
    ctx: ScimContext,
    id: string,
    pre: Precondition,
    edit: (row: UserGroupRow, members: MemberRow[]) => GroupDoc,
  ): Promise<ScimResource> {
    return transaction(this.db, async (trx) => {
      const repo = new ScimQueryRepo(trx);
      const row = await repo.findGroup(ctx.accountId, id, true);
      if (!row) throw groupNotFound(id);
      checkIfMatch(pre.ifMatch, row.version);
      const members = await repo.members(ctx.accountId, [row.id]);
      const doc = edit(row, members);
      const name = checkDisplayName(doc);
      const externalId = doc.externalId ?? null;
      if (name !== row.name || externalId !== row.external_id) {
        if (name !== row.name) await this.assertUnique(ctx, name, row.id);
        await this.groups.update(ctx.accountId, row.id, { name, externalId });
      }
      const wanted = await this.memberIds(ctx, doc, trx);
      const before = new Set(members.map((m) => m.user_id));
      const removed = [...before].some((userId) => !wanted.includes(userId));
      const added = wanted.filter((userId) => !before.has(userId));
      if (removed) await this.groups.setMembers(ctx.accountId, row.id, wanted);
      else if (added.length > 0) await this.groups.addMembers(ctx.accountId, row.id, added);
      return (await this.get(ctx, id, true)).resource;
    });
  }

  /** Member values are user ids (UUIDs) of this account; any other value is `invalidValue`. */
  private async memberIds(ctx: ScimContext, doc: GroupDoc, trx: Kysely<Database>): Promise<number[]> {
    const values = (doc.members ?? []).map((m) => m.value);
    if (values.length === 0) return [];
    const users = await new ScimQueryRepo(trx).usersByUuid(ctx.accountId, values);
    const known = new Map(users.map((u) => [u.uuid.toLowerCase(), u.id]));
    const missing = values.filter((v) => !known.has(v.toLowerCase()));
    if (missing.length > 0) throw invalidValue(`members refer to users that do not exist: ${missing.join(', ')}`);
    return [...new Set(values.map((v) => known.get(v.toLowerCase())!))];
  }

  private async assertUnique(ctx: ScimContext, name: string, selfId: number | undefined) {
    // displayName is caseExact false, so "Admins" takes "admins" too; renaming a group to another case of its own name does not.
    const holder = await this.groups.findNameHolder(ctx.accountId, name);
    if (holder && holder.id !== selfId) throw uniqueness(`displayName "${name}" is already taken in this account (by "${holder.name}")`);
  }

  private target(row: UserGroupRow | undefined, _members: MemberRow[], ctx: ScimContext): PatchTarget {
    return {
      type: resourceTypes.Group,
      id: row?.uuid ?? '',
      meta: row ? (toScimGroup(row, undefined, ctx).meta as Record<string, unknown>) : { resourceType: 'Group' },
      stored: { members: ['value'] },
    };
  }
}

function checkDisplayName(doc: GroupDoc): string {
  if (typeof doc.displayName !== 'string' || doc.displayName.trim() === '') throw invalidValue('displayName is required');
  return doc.displayName;
}
