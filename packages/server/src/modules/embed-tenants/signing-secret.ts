import { sql } from 'kysely';
import type { Executor } from '../../store/executor.js';

/** The account's sealed embed signing secret, kept in its embed_account row beside the external-user count. */
export async function signingSecret(db: Executor, accountId: number): Promise<string | null> {
  const row = await db.selectFrom('embed_account').select('signing_secret_sealed').where('account_id', '=', accountId).executeTakeFirst();
  return row?.signing_secret_sealed ?? null;
}

/** Stores `sealed` unless a secret is already there, and returns whichever is stored: first writer wins. */
export async function keepSigningSecret(db: Executor, accountId: number, sealed: string): Promise<string> {
  const result = await sql<{ sealed: string }>`
    insert into embed_account (account_id, signing_secret_sealed) values (${accountId}, ${sealed})
    on conflict (account_id) do update
      set signing_secret_sealed = coalesce(embed_account.signing_secret_sealed, excluded.signing_secret_sealed)
    returning signing_secret_sealed as sealed`.execute(db);
  return result.rows[0]!.sealed;
}

/** An embed tenant's name as a column of another module's query (embed's session list names each session's tenant). */
export function embedTenantName(tenantIdColumn: string) {
  return sql<string>`(select t.name from embed_tenant t where t.id = ${sql.ref(tenantIdColumn)})`;
}
