import { listResponse, planList, type ListParams, type PlannedList } from './list-params.js';
import type { ScimGroupService } from './group-service.js';
import { groupTarget, userTarget } from './query-repo.js';
import type { ScimContext, ScimUserService } from './user-service.js';

/**
 * `POST /.search` at the root (RFC 7644 §3.4.3): one ListResponse over Users, then Groups. The
 * filter applies to each type, an attribute a type lacks being absent there, so
 * `meta.resourceType eq "Group"` (or `userName eq …`) narrows to one type. A filter or sortBy that
 * is wrong for every type is the error it would be at either endpoint. startIndex and count page
 * through the concatenation: the groups' window starts where the users run out.
 */
export async function searchAll(ctx: ScimContext, params: ListParams, services: { users: ScimUserService; groups: ScimGroupService }) {
  const strict = [attempt(() => planList(params, userTarget)), attempt(() => planList(params, groupTarget))];
  if (strict.every((p) => p instanceof Error)) throw strict[0] as Error;
  const lenient = { absentIfUnknown: true };
  const userPlan = planList(params, userTarget, lenient);
  const groupPlan = planList(params, groupTarget, lenient);
  const users = await services.users.page(ctx, userPlan);
  const { offset, limit } = userPlan.query;
  const groupQuery = {
    ...groupPlan.query,
    offset: Math.max(0, offset - users.total),
    limit: limit - users.resources.length,
  };
  const groups = await services.groups.page(ctx, { ...groupPlan, query: groupQuery } satisfies PlannedList);
  return listResponse([...users.resources, ...groups.resources], users.total + groups.total, userPlan.startIndex);
}

function attempt<T>(plan: () => T): T | Error {
  try {
    return plan();
  } catch (error) {
    return error as Error;
  }
}
