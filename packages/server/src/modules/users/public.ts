import { sql, type Expression, type RawBuilder } from 'kysely';
import type { Role } from '../../store/schema.js';
import type { Executor } from '../../store/executor.js';

/**
 * What other modules may use of users beyond the service: a user's state as columns of another
 * module's query, so that verifying a credential stays one round trip (credentials/repo.ts).
 */
export function userActive(userId: Expression<number>): RawBuilder<boolean | null> {
  return sql<boolean | null>`(select u.active from app_user u where u.id = ${userId})`;
}

export function userRole(userId: Expression<number>): RawBuilder<Role | null> {
  return sql<Role | null>`(select u.role from app_user u where u.id = ${userId})`;
}

/** Who a user is as another module shows them: the sign-in address, userName and first name. */
export interface Person {
  email: string | null;
  user_name: string | null;
  first_name: string | null;
}

/**
 * The user as a column of another module's query (null when gone): a list names the people of a
 * page in its own query, each by primary key, instead of asking once per row.
 */
export function personOf(userId: Expression<number | null>): RawBuilder<Person | null> {
  return sql<Person | null>`(
    select jsonb_build_object('email', u.email, 'user_name', u.user_name, 'first_name', coalesce(u.given_name, u.display_name))
    from app_user u where u.id = ${userId}
  )`;
}

/**
 * The account's users that are not deleted, for another module to select from in its own
 * statement: SCIM reads, locks and lists them by its own keys and filters.
 */
export function usersOfAccount(db: Executor, accountId: number) {
  return db.selectFrom('app_user').where('account_id', '=', accountId).where('deleted_at', 'is', null);
}

/** Every user, deleted or not, every column, as a relation of another module's query (joined by id). */
export const everyUser: RawBuilder<unknown> = sql`(select * from app_user)`;

/** The same for another module's Kysely query, to join by id (a group's members, gone or not). */
export function allUsers(db: Executor) {
  return db.selectFrom('app_user').selectAll();
}
