import { sql, type Expression, type RawBuilder } from 'kysely';
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

/**
 * Whether the access token can still be used or refreshed as of `cutoff` (not revoked, its refresh
 * not expired before then), as a condition of another module's query: login purges the sessions
 * none of whose tokens qualifies, in one statement.
 */
export function accessTokenLiveAt(tokenId: Expression<number>, cutoff: Date): RawBuilder<boolean> {
  return sql<boolean>`exists (
    select 1 from access_token a
    where a.id = ${tokenId} and a.revoked_at is null and (a.refresh_expires_at is null or a.refresh_expires_at >= ${cutoff}))`;
}
