import { forbidden, type ApiError } from './errors.js';
import { implied, permissionCatalog, type Permission } from './permissions.js';
import type { Grants, Principal, UserPrincipal } from './principal.js';
import type { Role } from '../store/schema.js';

/** What an operation acts on, as far as authorisation cares. */
export type Resource =
  /**
   * The whole account: its directory, settings, integrations and credentials, and what creates a
   * deployment. Account-wide, so a credential limited to deployments is refused whatever it holds.
   */
  | { type: 'account' }
  /**
   * The account as far as the caller's deployments reach: what the account shares with every
   * deployment to read, lists filtered by the caller's scope, the caller's own things. A credential
   * limited to deployments may act here, except with a permission that is always account-wide.
   */
  | { type: 'withinScope' }
  /** One deployment of the account; a key limited to deployments reaches only its own. */
  | { type: 'deployment'; id: number }
  /**
   * A credential to create or manage, by what it would reach: its role's permissions, or exactly
   * `permissions` (names as a key or policy states them, implications not yet applied) on its deployments.
   */
  | { type: 'credential'; role: Role; deploymentIds: readonly number[] | null; permissions?: readonly string[] | null };

export const ACCOUNT: Resource = Object.freeze({ type: 'account' });
export const WITHIN_SCOPE: Resource = Object.freeze({ type: 'withinScope' });

const RANK: Record<Role, number> = { member: 0, admin: 1 };
const NONE: ReadonlySet<Permission> = new Set();

/**
 * The one decision of whether a principal may exercise a permission on a resource: its role (or
 * its kind, for credentials of no user), its resource policies (access tokens) or its own
 * permissions (API keys created with them) must grant the permission on that deployment; a
 * credential limited to deployments acts only within them, never on what reaches the whole
 * account (an account-wide resource, or a permission that is always account-wide), and never
 * creates a credential that reaches further than itself. Answers null when allowed, else the 403
 * to send; `doing` completes the refusal's "cannot …" (e.g. 'create an API key'). Allocates
 * nothing when allowed: it runs on every request.
 */
export function authorize(principal: Principal, permission: Permission, resource: Resource, doing = 'do this'): ApiError | null {
  const on = resource.type === 'deployment' ? resource.id : null;
  if (!holds(principal, permission, on)) return missing(principal, permission, on);
  if (resource.type === 'credential') {
    const wider = widerCredential(principal, resource, doing);
    if (wider) return wider;
  }
  const scope = deploymentScope(principal);
  if (scope === null) return null;
  switch (resource.type) {
    case 'withinScope':
      if (!permissionCatalog().accountWide.has(permission)) return null;
      return accountWide(scope, doing);
    case 'account':
      return accountWide(scope, doing);
    case 'deployment':
      if (scope.includes(resource.id)) return null;
      return forbidden(`This ${principal.kind === 'apiKey' ? 'API key' : 'token'} is not allowed to access deployment ${resource.id}`);
    case 'credential': {
      if (resource.deploymentIds === null) {
        return forbidden(`${limitedTo(scope)} and cannot ${doing} for every deployment; name its deploymentIds`);
      }
      const outside = resource.deploymentIds.filter((id) => !scope.includes(id));
      if (outside.length === 0) return null;
      return forbidden(`${limitedTo(scope)} and cannot ${doing} for deployments ${outside.join(', ')}`);
    }
  }
}

/** `authorize`, for a service whose check needs the store: throws the refusal. */
export function demand(principal: Principal, permission: Permission, resource: Resource, doing?: string): void {
  const refusal = authorize(principal, permission, resource, doing);
  if (refusal) throw refusal;
}

/**
 * Whether a principal holds a permission on one deployment (`deploymentId`) or on the account
 * (null). On the account, a key with its own permissions holds what it holds on any of its
 * deployments (what it then sees is filtered by its scope); resource policies on single
 * deployments grant nothing on the account.
 */
export function holds(principal: Principal, permission: Permission, deploymentId: number | null): boolean {
  switch (principal.kind) {
    case 'apiKey':
      if (!principal.permissions) return permissionCatalog().roles[principal.role].has(permission);
      return deploymentId === null
        ? holdsAnywhere(principal.permissions, permission)
        : inGrants(principal.permissions, permission, deploymentId);
    case 'accessToken':
      if (permissionCatalog().roles[principal.role].has(permission)) return true;
      return !!principal.policies && inGrants(principal.policies, permission, deploymentId);
    case 'embedToken':
      if (permissionCatalog().kinds.embedToken.has(permission)) return true;
      return principal.claims.creatorMode === true && permissionCatalog().creatorMode.has(permission);
    default:
      return (permissionCatalog().kinds[principal.kind] ?? NONE).has(permission);
  }
}

function inGrants(grants: Grants, permission: Permission, deploymentId: number | null): boolean {
  if (grants.everywhere.has(permission)) return true;
  return deploymentId !== null && grants.byDeployment.get(deploymentId)?.has(permission) === true;
}

function holdsAnywhere(grants: Grants, permission: Permission): boolean {
  if (grants.everywhere.has(permission)) return true;
  for (const set of grants.byDeployment.values()) if (set.has(permission)) return true;
  return false;
}

/** The refusal for a permission not held, naming it (the role's wording where only a role could grant it). */
function missing(principal: Principal, permission: Permission, deploymentId: number | null): ApiError {
  const where = deploymentId === null ? '' : ` on deployment ${deploymentId}`;
  if (principal.kind === 'apiKey' && principal.permissions) {
    return forbidden(`This credential does not grant ${permission}${where}`);
  }
  if (permissionCatalog().roles.admin.has(permission) && 'role' in principal) {
    // A policy could have granted it: say which permission would do, beside the role.
    if (principal.kind === 'accessToken' && principal.policies) {
      return forbidden(`This operation requires the admin role or the ${permission} permission${where}`);
    }
    return forbidden('This operation requires the admin role');
  }
  return forbidden(`This credential does not grant ${permission}${where}`);
}

/**
 * A credential never creates or manages one that reaches further: not a higher role, and for a
 * credential with its own permissions, none that the caller does not hold on every deployment it names.
 */
function widerCredential(principal: Principal, resource: Extract<Resource, { type: 'credential' }>, doing: string): ApiError | null {
  if (!('role' in principal)) return null;
  const permissions = resource.permissions ?? null;
  if (permissions === null) {
    if (principal.kind === 'apiKey' && principal.permissions) {
      return forbidden(`This API key holds only its own permissions and cannot ${doing} with a role; name its permissions`);
    }
    if (RANK[resource.role] > RANK[principal.role]) {
      return forbidden(`A credential with the ${principal.role} role cannot ${doing} with the ${resource.role} role`);
    }
    return null;
  }
  const targets: ReadonlyArray<number | null> = resource.deploymentIds ?? [null];
  for (const wanted of implied(permissions)) {
    for (const id of targets) {
      const held = id === null ? holdsEverywhere(principal, wanted) : holds(principal, wanted, id);
      if (!held)
        return forbidden(
          `This credential does not grant ${wanted}${id === null ? ' on every deployment' : ` on deployment ${id}`} and cannot ${doing} that does`,
        );
    }
  }
  return null;
}

/** Held on every deployment at once: by role, or by a policy on the account (Global). */
function holdsEverywhere(principal: UserPrincipal, permission: Permission): boolean {
  if (principal.kind === 'apiKey') {
    return !principal.permissions
      ? permissionCatalog().roles[principal.role].has(permission)
      : principal.permissions.everywhere.has(permission);
  }
  return permissionCatalog().roles[principal.role].has(permission) || principal.policies?.everywhere.has(permission) === true;
}

/**
 * Data visibility, from the same rule: the deployments a principal reaches, or null for every
 * deployment of the account. Lists filter with it so a scoped key sees only its own.
 */
export function deploymentScope(principal: Principal): readonly number[] | null {
  switch (principal.kind) {
    case 'apiKey':
      return principal.deploymentIds;
    case 'dataToken':
    case 'embedToken':
      return [principal.claims.deploymentId];
    default:
      return null;
  }
}

/**
 * The credentials a principal may see and manage: those of at most its role and, for a scoped
 * key, within its deployments (a list filters with this; see `authorize` for one credential).
 */
export function credentialReach(principal: UserPrincipal): { role: Role; deploymentIds: readonly number[] | null } {
  return { role: principal.role, deploymentIds: principal.deploymentIds };
}

function accountWide(scope: readonly number[], doing: string): ApiError {
  return forbidden(`${limitedTo(scope)} and cannot ${doing}; use a key for every deployment`);
}

function limitedTo(ids: readonly number[]): string {
  return ids.length === 0 ? 'This API key is limited to no deployment' : `This API key is limited to deployments ${ids.join(', ')}`;
}
