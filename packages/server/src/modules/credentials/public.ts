import type { Executor } from '../../store/executor.js';

/**
 * What other modules may use of credentials beyond the service: revoking everything a user holds
 * when the user is retired, on `db` so it joins the caller's transaction. The rows stay, revoked
 * with the reason, for the audit trail.
 */
export async function revokeCredentialsOfUser(db: Executor, accountId: number, userId: number, reason: string): Promise<void> {
  const now = new Date();
  for (const table of ['api_key', 'access_token'] as const) {
    await db
      .updateTable(table)
      .set({ revoked_at: now, revoked_reason: reason })
      .where('account_id', '=', accountId)
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .execute();
  }
}
