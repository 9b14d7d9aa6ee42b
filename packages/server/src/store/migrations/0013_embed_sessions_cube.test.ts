import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openTestStore, storeKinds } from '../../test-support/stores.js';

/** The generic plan of a prepared statement, as the server's prepared statements get it after five runs. */
async function genericPlan(db: Kysely<any>, statement: string, args: string): Promise<string> {
  return db.transaction().execute(async (trx) => {
    await sql`set local plan_cache_mode = force_generic_plan`.execute(trx);
    await sql.raw(`prepare probe(integer, integer, text) as ${statement}`).execute(trx);
    const { rows } = await sql<{ 'QUERY PLAN': unknown }>`explain (format json) ${sql.raw(`execute probe(${args})`)}`.execute(trx);
    await sql`deallocate probe`.execute(trx);
    return JSON.stringify(rows[0]!['QUERY PLAN']);
  });
}

describe.each(storeKinds)('migration 0013 [%s]', (kind) => {
  it('the page view still finds its user by the unique index; expired ephemeral users are found by the expiry index', async () => {
    const store = await openTestStore(kind);
    try {
      const account = await sql<{ id: number }>`insert into account (name) values ('m13') returning id`.execute(store.db);
      const accountId = account.rows[0]!.id;
      const tenant = await sql<{ id: number }>`
        insert into embed_tenant (account_id, name) values (${accountId}, 'tenant') returning id`.execute(store.db);
      const tenantId = tenant.rows[0]!.id;
      // Many kept users and a few ephemeral ones, no ANALYZE since.
      await sql`insert into external_user (account_id, embed_tenant_id, external_id, expires_at)
        select ${accountId}, ${tenantId}, 'user-' || n, case when n % 500 = 0 then now() + interval '1 hour' end
        from generate_series(1, 5000) n`.execute(store.db);

      const pageView = await genericPlan(
        store.db,
        'select id from external_user where account_id = $1 and embed_tenant_id = $2 and external_id = $3 and expires_at is null',
        `${accountId}, ${tenantId}, 'user-7'`,
      );
      expect(pageView).toContain('"Index Name":"external_user_embed_tenant_id_external_id_key"');
      const purge = await genericPlan(
        store.db,
        'select id from external_user where account_id = $1 and expires_at <= now() and $2::integer is not null and $3::text is not null limit 100',
        `${accountId}, 0, ''`,
      );
      expect(purge).toContain('"Index Name":"external_user_expiry"');
      // Embedding stays on for every account that existed before the migration, and for new ones.
      await sql`insert into tenant_settings (account_id) values (${accountId}) on conflict do nothing`.execute(store.db);
      const settings = await sql<{ embedding_enabled: boolean }>`
        select embedding_enabled from tenant_settings where account_id = ${accountId}`.execute(store.db);
      expect(settings.rows).toEqual([{ embedding_enabled: true }]);
    } finally {
      await store.close();
    }
  });
});
