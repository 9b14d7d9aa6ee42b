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

/** The account's groups, for another module to select from in its own statement (SCIM reads, locks and lists them). */
export function groupsOfAccount(db: Executor, accountId: number) {
  return db.selectFrom('user_group').where('account_id', '=', accountId);
}

/** The account's memberships, for another module to select from in its own statement. */
export function membershipsOfAccount(db: Executor, accountId: number) {
  return db.selectFrom('group_member').where('account_id', '=', accountId);
}

/** The memberships of one group as a relation of another module's query, for a condition on its members. */
export function membershipsOfGroup(groupId: Expression<number>, accountId: Expression<number>): RawBuilder<unknown> {
  return sql`(select * from group_member m where m.group_id = ${groupId} and m.account_id = ${accountId})`;
}
