import { forbidden } from '../../http/errors.js';
import type { Principal } from '../../http/principal.js';
import type { Role } from '../../store/schema.js';

/** What a credential can reach: a role, and the deployments it is limited to (null for all). */
export interface Reach {
  role: Role;
  deploymentIds: readonly number[] | null;
}

const RANK: Record<Role, number> = { member: 0, admin: 1 };

/**
 * Issue 10, security 1: a credential never creates or manages a credential that reaches more than
 * it does, or a key limited to one deployment could mint itself an account-wide admin key.
 */
export function assertWithinReach(caller: Principal, target: Reach, action: string): void {
  if (RANK[target.role] > RANK[caller.role]) {
    throw forbidden(`A credential with the ${caller.role} role cannot ${action} with the ${target.role} role`);
  }
  const mine = caller.deploymentIds;
  if (mine === null) return;
  if (target.deploymentIds === null) {
    throw forbidden(`${limitedTo(mine)} and cannot ${action} for every deployment; name its deploymentIds`);
  }
  const outside = target.deploymentIds.filter((id) => !mine.includes(id));
  if (outside.length > 0) throw forbidden(`${limitedTo(mine)} and cannot ${action} for deployments ${outside.join(', ')}`);
}

/**
 * Credentials that always reach the whole account (SCIM tokens, a user's password and so their
 * access tokens) are managed only by a credential that is not limited to deployments.
 */
export function assertAccountWide(caller: Principal, action: string): void {
  if (caller.deploymentIds !== null) {
    throw forbidden(`${limitedTo(caller.deploymentIds)} and cannot ${action}; use a key for every deployment`);
  }
}

/** Whether a stored credential is within the caller's reach (for lists and revocation). */
export function isWithinReach(caller: Principal, target: Reach): boolean {
  try {
    assertWithinReach(caller, target, 'manage it');
    return true;
  } catch {
    return false;
  }
}

function limitedTo(ids: readonly number[]): string {
  return ids.length === 0 ? 'This API key is limited to no deployment' : `This API key is limited to deployments ${ids.join(', ')}`;
}
