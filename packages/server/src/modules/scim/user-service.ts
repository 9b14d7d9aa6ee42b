import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.js';
import type { UserService } from '../users/service.js';
import { notFound } from '../../http/errors.js';
import { transaction } from '../../store/transaction.js';
import { resourceTypes } from './attributes.js';
import { mutability, uniqueness, URN } from './errors.js';
import { requireSchemas } from './request-schemas.js';
import { checkIfMatch } from './etag.js';
import { listResponse, planList, type ListParams, type PlannedList } from './list-params.js';
import { toScimUser, type Meta, type ScimResource } from './mappers.js';
import { applyPatch, type PatchOperation } from './patch.js';
import { Projection } from './projection.js';
import { ScimQueryRepo, userTarget, type UserGroupOfRow } from './query-repo.js';
import { userChanges, userDocOf, userFieldsOf, userPatchTarget, type UserDoc } from './user-doc.js';

/** Who is asking: the account, and the SCIM base URL its resources' `meta.location` is built on. */
export interface ScimContext extends Meta {
  accountId: number;
  /** Who is asking, for the audit trail of a delete: the SCIM token. */
  actor: string;
}

export interface Precondition {
  ifMatch?: string | undefined;
}

/** A User body may carry the enterprise extension besides the core schema. */
const USER_SCHEMAS = [URN.user, URN.enterpriseUser];

export const userNotFound = (id: string) => notFound(`User ${id} not found`);

/**
 * SCIM Users (RFC 7644 §3) as a projection of the account's internal users. Reads use the SCIM
 * query repository; every write goes through the users service inside one transaction, so a
 * request that fails part-way changes nothing.
 */
export class ScimUserService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly users: UserService,
  ) {}

  /** `withGroups`: the read-only `groups`, returned only when a client asks for it. */
  async get(ctx: ScimContext, id: string, withGroups = false) {
    const repo = new ScimQueryRepo(this.db);
    const row = await repo.findUser(ctx.accountId, id);
    if (!row) throw userNotFound(id);
    const groups = withGroups ? await repo.groupsOfUsers(ctx.accountId, [row.id]) : undefined;
    return { resource: toScimUser(row, ctx, groups), version: row.version };
  }

  async list(ctx: ScimContext, params: ListParams) {
    const plan = planList(params, userTarget);
    const { total, resources } = await this.page(ctx, plan);
    return listResponse(resources, total, plan.startIndex);
  }

  /** One planned page and the total it is part of; `POST /.search` joins it with the groups'. */
  async page(ctx: ScimContext, plan: PlannedList): Promise<{ total: number; resources: ScimResource[] }> {
    const repo = new ScimQueryRepo(this.db);
    const { total, rows } = await repo.listUsers(ctx.accountId, plan.query);
    const groups = plan.projection.requests('groups')
      ? await repo.groupsOfUsers(
          ctx.accountId,
          rows.map((r) => r.id),
        )
      : undefined;
    const byUser = new Map<number, UserGroupOfRow[]>();
    for (const g of groups ?? []) byUser.set(g.user_id, [...(byUser.get(g.user_id) ?? []), g]);
    const own = (userId: number) => (groups ? (byUser.get(userId) ?? []) : undefined);
    return { total, resources: rows.map((row) => plan.projection.apply(toScimUser(row, ctx, own(row.id)))) };
  }

  async create(ctx: ScimContext, body: Record<string, unknown>): Promise<ScimResource> {
    requireSchemas(body, URN.user, USER_SCHEMAS);
    const doc = applyPatch({}, [{ op: 'replace', value: body }], userPatchTarget(undefined, ctx), 'resource') as UserDoc;
    const fields = userFieldsOf(doc);
    return transaction(this.db, async () => {
      await this.assertUnique(ctx, fields.userName, undefined);
      const created = await this.users.create(ctx.accountId, { ...fields, role: 'member' });
      return (await this.get(ctx, created.uuid)).resource;
    });
  }

  /** PUT: attributes the body leaves out are cleared, except `active`, which only a client that sends it changes. */
  async replace(ctx: ScimContext, id: string, body: Record<string, unknown>, pre: Precondition) {
    requireSchemas(body, URN.user, USER_SCHEMAS);
    return this.modify(ctx, id, pre, (row) => {
      return applyPatch({ active: row.active }, [{ op: 'replace', value: body }], userPatchTarget(row, ctx), 'resource') as UserDoc;
    });
  }

  async patch(ctx: ScimContext, id: string, operations: PatchOperation[], pre: Precondition) {
    return this.modify(ctx, id, pre, (row) => applyPatch(userDocOf(row), operations, userPatchTarget(row, ctx)) as UserDoc);
  }

  /**
   * The user is gone for SCIM (a later GET is 404) and for everyone else, but not erased: their
   * keys and tokens are revoked with the reason, and the row keeps who deleted them and when
   * (UserService.retire).
   */
  async delete(ctx: ScimContext, id: string, pre: Precondition): Promise<void> {
    await transaction(this.db, async (trx) => {
      const row = await new ScimQueryRepo(trx).findUser(ctx.accountId, id, true);
      if (!row) throw userNotFound(id);
      checkIfMatch(pre.ifMatch, row.version);
      await this.assertNotLastAdmin(ctx, row.id, 'delete');
      await this.users.retire(ctx.accountId, row.id, { by: ctx.actor, reason: 'SCIM DELETE /Users/' + row.uuid });
    });
  }

  projection(params: { attributes?: string | undefined; excludedAttributes?: string | undefined }) {
    return Projection.of(resourceTypes.User, params.attributes, params.excludedAttributes);
  }

  private async modify(
    ctx: ScimContext,
    id: string,
    pre: Precondition,
    edit: (row: NonNullable<Awaited<ReturnType<ScimQueryRepo['findUser']>>>) => UserDoc,
  ): Promise<ScimResource> {
    return transaction(this.db, async (trx) => {
      const row = await new ScimQueryRepo(trx).findUser(ctx.accountId, id, true);
      if (!row) throw userNotFound(id);
      checkIfMatch(pre.ifMatch, row.version);
      const changes = userChanges(row, edit(row));
      if (Object.keys(changes).length > 0) {
        if (changes.userName !== undefined && changes.userName !== null) await this.assertUnique(ctx, changes.userName, row.id);
        if (changes.active === false) await this.assertNotLastAdmin(ctx, row.id, 'deactivate');
        await this.users.update(ctx.accountId, row.id, changes);
      }
      return (await this.get(ctx, id)).resource;
    });
  }

  private async assertUnique(ctx: ScimContext, userName: string, selfId: number | undefined) {
    const holder = await new ScimQueryRepo(this.db).findUserIdByUserName(ctx.accountId, userName);
    if (holder !== undefined && holder !== selfId) throw uniqueness(`userName "${userName}" is already taken in this account`);
  }

  /** RFC 7644 §3.12: the account's last active admin cannot lose that state; `mutability`, not a conflict of values. */
  private async assertNotLastAdmin(ctx: ScimContext, userId: number, action: string) {
    if (await this.users.isLastActiveAdmin(ctx.accountId, userId)) {
      throw mutability(`Cannot ${action} the last active admin of the account; make another user an active admin first`);
    }
  }
}
