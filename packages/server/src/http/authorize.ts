import { forbidden, type ApiError } from './errors.js';
import { ACCOUNT_WIDE, KIND_PERMISSIONS, ROLE_PERMISSIONS, type Permission } from './permissions.js';
import type { Principal, UserPrincipal } from './principal.js';
import type { Role } from '../store/schema.js';

/** What an operation acts on, as far as authorisation cares. */
export type Resource =
  | { type: 'account' }
  /** One deployment of the account; a key limited to deployments reaches only its own. */
  | { type: 'deployment'; id: number }
  /** A credential to create or manage, by what it would reach. */
  | { type: 'credential'; role: Role; deploymentIds: readonly number[] | null };

export const ACCOUNT: Resource = Object.freeze({ type: 'account' });

const RANK: Record<Role, number> = { member: 0, admin: 1 };
const NONE: ReadonlySet<Permission> = new Set();

/**
 * The one decision of whether a principal may exercise a permission on a resource: its role (or
 * its kind, for credentials of no user) must grant the permission, and a credential limited to
 * deployments acts only within them, never on what reaches the whole account, and never creates
 * a credential that reaches further than itself (issue 10, security 1). Resource policies plug in
 * here. Answers null when allowed, else the 403 to send; `doing` completes the refusal's
 * "cannot …" (e.g. 'create an API key'). Allocates nothing when allowed: it runs on every request.
 */
export function authorize(principal: Principal, permission: Permission, resource: Resource, doing = 'do this'): ApiError | null {
  if (!grantsOf(principal).has(permission)) {
    if (ROLE_PERMISSIONS.admin.has(permission) && 'role' in principal) return forbidden('This operation requires the admin role');
    return forbidden(`This credential does not grant ${permission}`);
  }
  if (resource.type === 'credential' && 'role' in principal && RANK[resource.role] > RANK[principal.role]) {
    return forbidden(`A credential with the ${principal.role} role cannot ${doing} with the ${resource.role} role`);
  }
  const scope = deploymentScope(principal);
  if (scope === null) return null;
  switch (resource.type) {
    case 'account':
      if (!ACCOUNT_WIDE.has(permission)) return null;
      return forbidden(`${limitedTo(scope)} and cannot ${doing}; use a key for every deployment`);
    case 'deployment':
      if (scope.includes(resource.id)) return null;
      return forbidden(`This API key is not allowed to access deployment ${resource.id}`);
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

function grantsOf(principal: Principal): ReadonlySet<Permission> {
  switch (principal.kind) {
    case 'apiKey':
    case 'accessToken':
      return ROLE_PERMISSIONS[principal.role];
    default:
      return KIND_PERMISSIONS[principal.kind] ?? NONE;
  }
}

function limitedTo(ids: readonly number[]): string {
  return ids.length === 0 ? 'This API key is limited to no deployment' : `This API key is limited to deployments ${ids.join(', ')}`;
}
