import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openTestStore, storeKinds } from '../../../test-support/stores.js';

const plan = async (store: Awaited<ReturnType<typeof openTestStore>>, query: ReturnType<typeof sql>) =>
  JSON.stringify((await sql<{ 'QUERY PLAN': unknown }>`explain (format json) ${query}`.execute(store.db)).rows[0]!['QUERY PLAN']);

describe.each(storeKinds)('migration 0014 [%s]', (kind) => {
  it('a deep page of live users is index-only scan of app_user_live_page', async () => {
    const store = await openTestStore(kind);
    try {
      const account = await sql<{ id: number }>`insert into account (name) values ('m14') returning id`.execute(store.db);
      const accountId = account.rows[0]!.id;
      // Vacuum marks a page all-visible only once its rows' commit is flushed (test stores commit
      // asynchronously), and the index-only scan reads that mark.
      await store.db.transaction().execute(async (trx) => {
        if (kind === 'postgres') await sql`set local synchronous_commit = on`.execute(trx);
        await sql`insert into app_user (account_id, email, role, deleted_at)
          select ${accountId}, 'u' || n || '@example.com', 'member', case when n % 100 = 0 then now() end
          from generate_series(1, 20000) n`.execute(trx);
      });
      await sql`vacuum analyze app_user`.execute(store.db);
      // The ids of a deep page, as ScimQueryRepo.listUsers asks for them with no filter. (Its count
      // may rightly be a sequential scan when one account holds every row.)
      const page = await plan(
        store,
        sql`select u.id from app_user u where u.account_id = ${accountId} and u.deleted_at is null and (true)
        order by u.id offset 19000 limit 100`,
      );
      expect(page).toContain('Index Only Scan');
      expect(page).toContain('app_user_live_page');
    } finally {
      await store.close();
    }
  });
});
