import { implied, permissionCatalog, type Permission } from '../../http/permissions.js';
import type { Grants } from '../../http/principal.js';
import type { Role } from '../../store/schema.js';

/** The resource type of a policy on the whole account, and of one on a deployment (the reference's names). */
export const GLOBAL = 'Global';
export const DEPLOYMENT = 'Deployment';

/**
 * Resource policies as the credential's query loads them (`type:id:action`), read through the
 * implication table; null when there are none, so a credential without policies is checked
 * exactly as before policies existed.
 */
export function grantsOfPolicies(policies: readonly string[] | null): Grants | null {
  if (!policies || policies.length === 0) return null;
  const everywhere: string[] = [];
  const byDeployment = new Map<number, string[]>();
  for (const policy of policies) {
    const [type, id, action] = policy.split(':') as [string, string, string];
    if (type === GLOBAL) everywhere.push(action);
    else if (type === DEPLOYMENT) byDeployment.set(Number(id), [...(byDeployment.get(Number(id)) ?? []), action]);
  }
  return {
    everywhere: implied(everywhere),
    byDeployment: new Map([...byDeployment].map(([id, actions]) => [id, implied(actions)])),
  };
}

/**
 * A key with its own permissions holds them on each of its deployments, but never more than its
 * user holds there now (role and policies): taking something from the user takes it from the key.
 */
export function grantsOfKey(permissions: readonly string[], deploymentIds: readonly number[], userRole: Role, user: Grants | null): Grants {
  const wanted = implied(permissions);
  const byDeployment = new Map<number, ReadonlySet<Permission>>();
  for (const id of deploymentIds) {
    const held = new Set<Permission>();
    for (const permission of wanted) {
      const userHolds =
        permissionCatalog().roles[userRole].has(permission) ||
        user?.everywhere.has(permission) === true ||
        user?.byDeployment.get(id)?.has(permission) === true;
      if (userHolds) held.add(permission);
    }
    byDeployment.set(id, held);
  }
  return { everywhere: new Set(), byDeployment };
}
