import { badRequest, forbidden, notFound } from '../../http/errors.js';
import { ACCOUNT, authorize, demand, holds } from '../../http/authorize.js';
import { implied, type PolicyAction } from '../../http/permissions.js';
import type { Principal } from '../../http/principal.js';
import type { ServiceContext } from '../module.js';
import { CONTENT_TYPES, contentPermission, type ContentItem, type ContentType } from './content-access.js';
import { checkFits, findContent, sourcesAbove, type Source } from './content-resource.js';
import { ResourcePolicyRepo, type ResourceRef, type Subject } from './repo.js';
import { SERVED_TYPES, type ResourceType } from './schemas.js';

const GLOBAL: ResourceRef = { type: 'Global', id: 0 };
const isContent = (type: ResourceType): type is ContentType => (CONTENT_TYPES as readonly string[]).includes(type);
/** A 400 for the reference's types Plinth does not serve (agents, chat threads, …), whoever asks. */
function checkServed(type: ResourceType): void {
  if (SERVED_TYPES.includes(type)) return;
  const served = `${SERVED_TYPES.slice(0, -1).join(', ')} and ${SERVED_TYPES.at(-1)}`;
  throw badRequest(`resourceType ${type} is not served yet; resource policies are on ${served} resources`);
}
type PolicyRow = Awaited<ReturnType<ResourcePolicyRepo['onResources']>>[number];

export interface PolicyUpdate {
  resourceType: ResourceType;
  resourceId: number;
  action?: PolicyAction | null;
}

/**
 * Resource policies of users and groups (the reference's tag Resource Policies). Semantics,
 * decided here and documented in the spec: a subject holds one action per resource; PUT replaces
 * it and `action: null` removes it; an action implies those below it (permissions.ts IMPLIES); a
 * policy on `Global` (resourceId 0) holds on the account and every deployment, one on a
 * `Deployment` on that deployment only. A user's access tokens hold their role's permissions plus
 * what the policies of the user and of the user's groups grant; API keys are unaffected, except
 * that a key with its own permissions never holds more than its user does. On workspace content
 * (Folder, Report, Workbook, Dashboard) a policy shares the item (content-access.ts): its Manage
 * holders change its policies as PoliciesManage holders do, and an item inherits the policies of
 * the folders above it, of its deployment and of the account.
 */
export class ResourcePolicyService {
  private readonly repo: ResourcePolicyRepo;

  constructor(private readonly ctx: ServiceContext) {
    this.repo = new ResourcePolicyRepo(ctx.db);
  }

  /** `getPolicies`: the policies on a resource, and those it inherits (folders, deployment, account). */
  async list(principal: Principal, query: { resourceType: ResourceType; resourceId: number }) {
    if (isContent(query.resourceType)) {
      const item = await this.content(principal, query.resourceType, query.resourceId);
      await this.ctx.services.contentAccess.demand(principal, item, 'Read');
      const chain = await this.ctx.services.contentAccess.folderChain(item.type === 'Folder' ? item.id : item.folderId);
      return this.present(principal, { type: item.type, id: item.id }, await sourcesAbove(this.ctx.db, item, chain));
    }
    const resource = await this.resource(principal, query.resourceType, query.resourceId);
    return this.present(principal, resource, resource.type === 'Global' ? [] : [{ resource: GLOBAL, sourceFolder: null }]);
  }

  /** The reference's ResourcePoliciesResponse: own policies, then inherited ones nearest first. */
  private async present(principal: Principal, resource: ResourceRef, sources: readonly Source[]) {
    const rows = await this.repo.onResources(principal.accountId, [resource, ...sources.map((s) => s.resource)]);
    const sameAs = (r: PolicyRow, ref: ResourceRef) => r.resource_type === ref.type && r.resource_id === ref.id;
    const own = rows.filter((r) => sameAs(r, resource));
    const inherited = sources.flatMap(({ resource: from, sourceFolder }) =>
      rows.filter((r) => sameAs(r, from)).map((r) => ({ row: r, sourceFolder })),
    );
    const action = (r: PolicyRow) => r.action as PolicyAction;
    return {
      userPolicies: own.filter((r) => r.user_id !== null).map((r) => ({ userId: r.user_id!, action: action(r) })),
      groupPolicies: own.filter((r) => r.group_id !== null).map((r) => ({ groupId: r.group_id!, action: action(r) })),
      inheritedUserPolicies: inherited
        .filter(({ row }) => row.user_id !== null)
        .map(({ row, sourceFolder }) => ({ userId: row.user_id!, action: action(row), sourceFolder })),
      inheritedGroupPolicies: inherited
        .filter(({ row }) => row.group_id !== null)
        .map(({ row, sourceFolder }) => ({ groupId: row.group_id!, action: action(row), sourceFolder })),
    };
  }

  async updateUser(principal: Principal, input: PolicyUpdate & { userId?: number | null }) {
    if (input.userId === undefined || input.userId === null) {
      throw badRequest('userId is missing: name the user the policy is for');
    }
    if (!(await this.ctx.services.users.find(principal.accountId, input.userId))) throw notFound(`User ${input.userId} not found`);
    return this.update(principal, { userId: input.userId }, input);
  }

  async updateGroup(principal: Principal, input: PolicyUpdate & { groupId: number }) {
    await this.ctx.services.groups.get(principal.accountId, input.groupId);
    return this.update(principal, { groupId: input.groupId }, input);
  }

  /**
   * Replaces or removes the subject's action. A caller never grants what it does not hold itself
   * on that resource (every deployment, for Global), so a policy is never wider than its author.
   */
  private async update(principal: Principal, subject: Subject, input: PolicyUpdate) {
    if (input.action === undefined) throw badRequest('action is missing: send the action to hold, or null to remove the policy');
    checkServed(input.resourceType);
    const resource = isContent(input.resourceType)
      ? await this.mayChangeContent(principal, input.resourceType, input.resourceId, input.action)
      : await this.mayChangeDeployments(principal, input);
    if (input.action !== null) await this.repo.put(principal.accountId, subject, resource, input.action);
    else await this.repo.remove(principal.accountId, subject, resource);
    return {
      resourceType: input.resourceType,
      resourceId: resource.id,
      userId: 'userId' in subject ? subject.userId : null,
      groupId: 'groupId' in subject ? subject.groupId : null,
      action: input.action,
    };
  }

  /** Global and Deployment: the account's administrators (PoliciesManage), within what they hold. */
  private async mayChangeDeployments(principal: Principal, input: PolicyUpdate): Promise<ResourceRef> {
    demand(principal, 'PoliciesManage', ACCOUNT, 'change resource policies');
    const resource = await this.resource(principal, input.resourceType, input.resourceId);
    if (!input.action) return resource;
    const deploymentId = resource.type === 'Deployment' ? resource.id : null;
    for (const permission of implied([input.action])) {
      if (!holds(principal, permission, deploymentId)) {
        const where = deploymentId === null ? ' on every deployment' : ` on deployment ${deploymentId}`;
        throw forbidden(`This credential does not grant ${permission}${where}, so it cannot grant ${input.action} there`);
      }
    }
    return resource;
  }

  /**
   * A content item: its Manage holders or PoliciesManage holders, granting an action that fits the
   * type and that they hold on the item themselves.
   */
  private async mayChangeContent(principal: Principal, type: ContentType, id: number, action: PolicyAction | null): Promise<ResourceRef> {
    checkFits(type, action);
    const item = await this.content(principal, type, id);
    const held = await this.ctx.services.contentAccess.actionsOn(principal, item);
    const what = `${type.toLowerCase()} ${id}`;
    if (!held.has(contentPermission(type, 'Read'))) throw notFound(`${type} ${id} not found`);
    const manage = contentPermission(type, 'Manage');
    if (!held.has(manage) && authorize(principal, 'PoliciesManage', ACCOUNT) !== null) {
      throw forbidden(`This credential does not grant ${manage} on ${what} (nor PoliciesManage), so it cannot change its policies`);
    }
    for (const permission of action === null ? [] : implied([action])) {
      if (!held.has(permission))
        throw forbidden(`This credential does not grant ${permission} on ${what}, so it cannot grant ${action} there`);
    }
    return { type, id };
  }

  /** A content item of the account, or 404 (another account's is as missing). */
  private async content(principal: Principal, type: ContentType, id: number): Promise<ContentItem> {
    const item = await findContent(this.ctx.db, principal.accountId, type, id);
    if (!item) throw notFound(`${type} ${id} not found`);
    return item;
  }

  /** Global or a Deployment the request names, once it exists in the account and is within the caller's reach. */
  private async resource(principal: Principal, type: ResourceType, id: number): Promise<ResourceRef> {
    checkServed(type);
    if (type === 'Global') {
      if (id !== 0) throw badRequest(`resourceType Global takes resourceId 0 (the account itself), not ${id}`);
      return GLOBAL;
    }
    // Reach before existence: a key limited to other deployments learns nothing about this one.
    demand(principal, 'DeploymentRead', { type: 'deployment', id });
    if (!(await this.ctx.services.deployments.find(principal.accountId, id))) throw notFound(`Deployment ${id} not found`);
    return { type: 'Deployment', id };
  }
}
