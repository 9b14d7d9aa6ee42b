import type { Principal, UserPrincipal } from '../../http/principal.js';
import type { CiRunRow } from '../../store/schema.js';

/** What a run records of the credential that started it: enough to name it again without a request. */
export type RunOwner = CiRunRow['owner'];

export function ownerOf(principal: UserPrincipal): RunOwner {
  return { kind: principal.kind, credentialId: principal.credentialId, userId: principal.userId };
}

/**
 * The run's credential as a principal, for the data-model module's dev-mode exit when the lease
 * lapses and no request is there to carry it. Dev mode is keyed by credentialKey(), which reads
 * only the kind and the credential or user id; the role and scope were checked when the run started.
 */
export function principalOfOwner(row: CiRunRow): Principal {
  const { kind, credentialId, userId } = row.owner;
  if (kind === 'apiKey')
    return { kind, accountId: row.account_id, credentialId, userId, role: 'member', deploymentIds: [row.deployment_id] };
  return { kind, accountId: row.account_id, credentialId, userId, role: 'member', deploymentIds: null };
}

/**
 * A run is heartbeated and finished by the user who started it, through any of their credentials
 * (their API key or their login): another user, even an admin, cannot end someone's run part-way.
 */
export function mayDrive(principal: Principal, row: CiRunRow): boolean {
  return (principal.kind === 'apiKey' || principal.kind === 'accessToken') && principal.userId === row.owner.userId;
}
