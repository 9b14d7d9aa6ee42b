import type { Caller } from '@plinth/semantic';
import { forbidden } from '../../http/errors.js';
import type { Principal } from '../../http/principal.js';
import type { Services } from '../module.js';

/** Cube's answer to a token that does not open this deployment. */
export const INVALID_TOKEN = 'Invalid token';

/**
 * Who asks, as the engine's access policies see it: a data API token brings only the security
 * context its issuer signed; an embed token brings its user's groups and attribute values too.
 * A token of another deployment is refused here as well as by the route's requirement.
 */
export function callerOf(principal: Principal, deploymentId: number): Caller {
  if (principal.kind === 'dataToken' && principal.claims.deploymentId === deploymentId) {
    return { groups: [], userAttributes: {}, securityContext: principal.claims.securityContext };
  }
  if (principal.kind === 'embedToken' && principal.claims.deploymentId === deploymentId) {
    // As embed's dataSecurityContext (not offered outside its module): the context as sent, groups and attributes beside it.
    const { groups, userAttributes, securityContext } = principal.claims;
    return { groups, userAttributes, securityContext: securityContext ?? {} };
  }
  throw forbidden(INVALID_TOKEN);
}

/**
 * An internal user as the engine's access policies see them: their groups and attribute values
 * in the account, with an empty security context, the same claims an internal user's embed
 * session carries (embed/service.ts internalClaims).
 */
export async function callerOfUser(
  services: Pick<Services, 'groups' | 'userAttributes'>,
  accountId: number,
  userId: number,
): Promise<Caller> {
  const groups = await services.groups.groupsOfUser(accountId, userId);
  const values = await services.userAttributes.getValues(accountId, userId);
  return {
    groups: groups.map((g) => g.name).sort(),
    userAttributes: Object.fromEntries(values.map((v) => [v.name, v.value])),
    securityContext: {},
  };
}
