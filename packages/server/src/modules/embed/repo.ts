import { sql, type Insertable } from 'kysely';
import type { Executor } from '../../store/executor.js';
import type { EmbedSessionTable } from '../../store/schema.js';
import { afterId } from '../../store/keyset.js';
import { embedTenantName } from '../embed-tenants/public.js';

/** embed_session; every query is bounded by the account. */
export class EmbedSessionRepo {
  constructor(private readonly db: Executor) {}

  async insert(values: Insertable<EmbedSessionTable>): Promise<void> {
    await this.db.insertInto('embed_session').values(values).execute();
  }

  /**
   * Marks the session exchanged if it still may be: one statement, so two simultaneous exchanges
   * of one id cannot both succeed.
   */
  consume(accountId: number, sessionHash: string) {
    return this.db
      .updateTable('embed_session')
      .set({ exchanged_at: sql`now()` })
      .where('account_id', '=', accountId)
      .where('session_hash', '=', sessionHash)
      .where('exchanged_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('exchange_by', '>', sql<Date>`now()`)
      .returningAll()
      .executeTakeFirst();
  }

  /** Revokes the session (once: a revoked one keeps its time); false when the account has no such session. */
  async revoke(accountId: number, session: { hash: string } | { id: number }): Promise<boolean> {
    const found = await this.db
      .selectFrom('embed_session')
      .select('id')
      .where('account_id', '=', accountId)
      .$call((q) => ('hash' in session ? q.where('session_hash', '=', session.hash) : q.where('id', '=', session.id)))
      .executeTakeFirst();
    if (!found) return false;
    await this.db
      .updateTable('embed_session')
      .set({ revoked_at: sql`now()` })
      .where('id', '=', found.id)
      .where('revoked_at', 'is', null)
      .execute();
    return true;
  }

  findById(accountId: number, id: number) {
    return this.db
      .selectFrom('embed_session')
      .select(['id', 'revoked_at', 'embed_tenant_id'])
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  list(accountId: number, after: number | undefined, limit: number) {
    return (
      this.db
        .selectFrom('embed_session as s')
        .select([
          's.id',
          's.created_at',
          's.api_key_id',
          's.deployment_id',
          's.external_user_id',
          's.internal_user_id',
          's.user_ref',
          's.creator_mode',
          's.exchanged_at',
          's.revoked_at',
        ])
        // Every session has its tenant (a foreign key that cascades), so this is the inner join it replaces.
        .select(embedTenantName('s.embed_tenant_id').as('embed_tenant_name'))
        .where('s.account_id', '=', accountId)
        .$call(afterId('s.id', after, limit))
        .execute()
    );
  }
}
