import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openTestStore, storeKinds } from '../../../test-support/stores.js';
import { down, up } from './0009_embed_page_indexes.js';

/** The lookups generate-session and provisioning make by name, each with the unique index that should serve it. */
const LOOKUPS = [
  { table: 'external_user', key: 'external_id', unique: 'external_user_embed_tenant_id_external_id_key' },
  { table: 'embed_group', key: 'name', unique: 'embed_group_embed_tenant_id_name_key' },
  { table: 'embed_user_attribute', key: 'name', unique: 'embed_user_attribute_embed_tenant_id_name_key' },
] as const;

/** The generic plan of a prepared lookup, as a prepared statement of the server gets it after five runs. */
async function genericPlan(db: Kysely<any>, table: string, key: string): Promise<string> {
  return db.transaction().execute(async (trx) => {
    await sql`set local plan_cache_mode = force_generic_plan`.execute(trx);
    await sql
      .raw(
        `prepare lookup(integer, integer, text) as
      select id from ${table} where account_id = $1 and embed_tenant_id = $2 and ${key} = $3`,
      )
      .execute(trx);
    const { rows } = await sql<{ 'QUERY PLAN': unknown }>`explain (format json) execute lookup(1, 1, 'x')`.execute(trx);
    await sql`deallocate lookup`.execute(trx);
    return JSON.stringify(rows[0]!['QUERY PLAN']);
  });
}

describe.each(storeKinds)('migration 0009 [%s]', (kind) => {
  it('leaves lookups by name to the unique indexes on tables that have no statistics yet', async () => {
    const store = await openTestStore(kind);
    try {
      const account = await sql<{ id: number }>`insert into account (name) values ('m9') returning id`.execute(store.db);
      const accountId = account.rows[0]!.id;
      const tenant = await sql<{ id: number }>`
        insert into embed_tenant (account_id, name) values (${accountId}, 'tenant') returning id`.execute(store.db);
      const tenantId = tenant.rows[0]!.id;
      // A tenant provisioned in bulk moments ago: many rows, no ANALYZE since.
      await sql`insert into external_user (account_id, embed_tenant_id, external_id)
        select ${accountId}, ${tenantId}, 'user-' || n from generate_series(1, 2000) n`.execute(store.db);
      await sql`insert into embed_group (account_id, embed_tenant_id, name)
        select ${accountId}, ${tenantId}, 'group-' || n from generate_series(1, 2000) n`.execute(store.db);
      await sql`insert into embed_user_attribute (account_id, embed_tenant_id, name, type)
        select ${accountId}, ${tenantId}, 'attribute-' || n, 'string' from generate_series(1, 2000) n`.execute(store.db);

      await down(store.db);
      // Before: the paging index competes with the unique one, and wins the external user lookup.
      expect(await genericPlan(store.db, 'external_user', 'external_id')).toContain('"Index Name":"external_user_page"');

      await up(store.db);
      for (const { table, key, unique } of LOOKUPS) {
        const plan = await genericPlan(store.db, table, key);
        expect(plan, table).toContain(`"Index Name":"${unique}"`);
        expect(plan, table).not.toContain(`${table}_page`);
      }
    } finally {
      await store.close();
    }
  });
});
