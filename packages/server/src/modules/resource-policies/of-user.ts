import { sql, type Expression, type RawBuilder } from 'kysely';
import { groupIdsOfUserQuery } from '../groups/public.js';

/**
 * The resource policies a user holds, directly or through a group, as `type:id:action` (null:
 * none), in one column of another module's query: verifying a credential stays one round trip.
 * Only the types authorisation reads today are loaded (content types come with the workspace).
 */
export function policiesOfUser(accountId: Expression<number>, userId: Expression<number>): RawBuilder<string[] | null> {
  return sql<string[] | null>`(
    select array_agg(p.resource_type || ':' || p.resource_id || ':' || p.action)
    from resource_policy p
    where p.account_id = ${accountId} and p.resource_type in ('Global', 'Deployment')
      and (p.user_id = ${userId} or p.group_id in ${groupIdsOfUserQuery(userId)})
  )`;
}
