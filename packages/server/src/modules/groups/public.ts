import { sql, type Expression, type RawBuilder } from 'kysely';
import type { Executor } from '../../store/executor.js';
import { GroupRepo } from './repo.js';

/** What other modules may use of groups beyond the service: ending a retired user's memberships, in the caller's transaction. */
export function endMembershipsOfUser(db: Executor, accountId: number, userId: number): Promise<void> {
  return new GroupRepo(db).removeUserFromGroupsExcept(accountId, userId, []);
}

/** The groups a user is a member of, as access decisions read them. */
export async function groupIdsOfUser(db: Executor, userId: number): Promise<number[]> {
  const rows = await db.selectFrom('group_member').select('group_id').where('user_id', '=', userId).execute();
  return rows.map((row) => row.group_id);
}

/** The same as a subquery of another module's query (a user's policies through their groups, in one round trip). */
export function groupIdsOfUserQuery(userId: Expression<number>): RawBuilder<number> {
  return sql<number>`(select m.group_id from group_member m where m.user_id = ${userId})`;
}
