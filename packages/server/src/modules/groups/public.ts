import type { Executor } from '../../store/executor.js';
import { GroupRepo } from './repo.js';

/** What other modules may use of groups beyond the service: ending a retired user's memberships, in the caller's transaction. */
export function endMembershipsOfUser(db: Executor, accountId: number, userId: number): Promise<void> {
  return new GroupRepo(db).removeUserFromGroupsExcept(accountId, userId, []);
}
