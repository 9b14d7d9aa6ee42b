import { badRequest, forbidden, notFound } from '../../http/errors.js';
import { demand, holds } from '../../http/authorize.js';
import { implied, type PolicyAction } from '../../http/permissions.js';
import type { Principal } from '../../http/principal.js';
import type { ServiceContext } from '../module.js';
import { ResourcePolicyRepo, type ResourceRef, type Subject } from './repo.js';
import { SERVED_TYPES, type ResourceType } from './schemas.js';

const GLOBAL: ResourceRef = { type: 'Global', id: 0 };

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
 * that a key with its own permissions never holds more than its user does.
 */
export class ResourcePolicyService {
  private readonly repo: ResourcePolicyRepo;

  constructor(private readonly ctx: ServiceContext) {
    this.repo = new ResourcePolicyRepo(ctx.db);
  }

  /** `getPolicies`: the policies on a resource, and those it inherits from the account. */
  async list(principal: Principal, query: { resourceType: ResourceType; resourceId: number }) {
    const resource = await this.resource(principal, query.resourceType, query.resourceId, 'DeploymentRead');
    const inherits = resource.type === 'Global' ? [] : [GLOBAL];
    const rows = await this.repo.onResources(principal.accountId, [resource, ...inherits]);
    const own = rows.filter((r) => r.resource_type === resource.type);
    const inherited = rows.filter((r) => r.resource_type !== resource.type);
    return {
      userPolicies: own.filter((r) => r.user_id !== null).map((r) => ({ userId: r.user_id!, action: r.action as PolicyAction })),
      groupPolicies: own.filter((r) => r.group_id !== null).map((r) => ({ groupId: r.group_id!, action: r.action as PolicyAction })),
      inheritedUserPolicies: inherited
        .filter((r) => r.user_id !== null)
        .map((r) => ({ userId: r.user_id!, action: r.action as PolicyAction, sourceFolder: null })),
      inheritedGroupPolicies: inherited
        .filter((r) => r.group_id !== null)
        .map((r) => ({ groupId: r.group_id!, action: r.action as PolicyAction, sourceFolder: null })),
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
    const resource = await this.resource(principal, input.resourceType, input.resourceId, 'DeploymentRead');
    const deploymentId = resource.type === 'Deployment' ? resource.id : null;
    if (input.action !== null) {
      for (const permission of implied([input.action])) {
        if (!holds(principal, permission, deploymentId)) {
          const where = deploymentId === null ? ' on every deployment' : ` on deployment ${deploymentId}`;
          throw forbidden(`This credential does not grant ${permission}${where}, so it cannot grant ${input.action} there`);
        }
      }
      await this.repo.put(principal.accountId, subject, resource, input.action);
    } else {
      await this.repo.remove(principal.accountId, subject, resource);
    }
    return {
      resourceType: input.resourceType,
      resourceId: resource.id,
      userId: 'userId' in subject ? subject.userId : null,
      groupId: 'groupId' in subject ? subject.groupId : null,
      action: input.action,
    };
  }

  /** The resource a request names, once it is served, exists in the account and is within the caller's reach. */
  private async resource(principal: Principal, type: ResourceType, id: number, permission: 'DeploymentRead'): Promise<ResourceRef> {
    if (!SERVED_TYPES.includes(type)) {
      throw badRequest(`resourceType ${type} is not served yet; resource policies are on ${SERVED_TYPES.join(' and ')} resources`);
    }
    if (type === 'Global') {
      if (id !== 0) throw badRequest(`resourceType Global takes resourceId 0 (the account itself), not ${id}`);
      return GLOBAL;
    }
    // Reach before existence: a key limited to other deployments learns nothing about this one.
    demand(principal, permission, { type: 'deployment', id });
    if (!(await this.ctx.services.deployments.find(principal.accountId, id))) throw notFound(`Deployment ${id} not found`);
    return { type: 'Deployment', id };
  }
}
