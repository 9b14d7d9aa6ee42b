import type { Executor } from '../../store/executor.js';
import { TenantSettingsRepo } from './repo.js';

/**
 * What other modules may use of tenant settings: the row a new account starts with, written by
 * accounts in the transaction that creates the account (the handle joins it).
 */
export function createTenantSettings(db: Executor, accountId: number): Promise<void> {
  return new TenantSettingsRepo(db).create(accountId);
}
