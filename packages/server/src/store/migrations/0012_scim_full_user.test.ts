import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openTestStore, storeKinds } from '../../test-support/stores.js';

/** The `userName eq` probe of every identity provider, as ScimQueryRepo.listUsers sends it for a first page. */
const probe = (accountId: number, userName: string) => sql<{ 'QUERY PLAN': unknown }>`explain (format json)
  select u.* from app_user u where u.account_id = ${accountId} and u.id in (
    select u.id from app_user u where u.account_id = ${accountId} and u.deleted_at is null
      and (lower(coalesce(u.user_name, u.email)) = ${userName.toLowerCase()})
    order by u.id offset 0 limit 2)
  order by u.id`;

describe.each(storeKinds)('migration 0012 [%s]', (kind) => {
  it('the userName lookup is one probe of its unique index, before and after ANALYZE', async () => {
    const store = await openTestStore(kind);
    try {
      const account = await sql<{ id: number }>`insert into account (name) values ('m12') returning id`.execute(store.db);
      const accountId = account.rows[0]!.id;
      await sql`insert into app_user (account_id, email, user_name, role)
        select ${accountId}, case when n % 2 = 0 then 'u' || n || '@example.com' end, case when n % 2 = 1 then 'emp-' || n end, 'member'
        from generate_series(1, 20000) n`.execute(store.db);
      for (const analyzed of [false, true]) {
        if (analyzed) await sql`analyze app_user`.execute(store.db);
        for (const userName of ['EMP-777', 'u778@example.com']) {
          const plan = JSON.stringify((await probe(accountId, userName).execute(store.db)).rows[0]!['QUERY PLAN']);
          expect(plan, `${userName}, analyzed: ${analyzed}`).toContain('app_user_user_name_per_account');
        }
      }
    } finally {
      await store.close();
    }
  });

  it('a deleted user frees its userName and e-mail; the live ones stay unique ignoring case', async () => {
    const store = await openTestStore(kind);
    try {
      const account = await sql<{ id: number }>`insert into account (name) values ('m12b') returning id`.execute(store.db);
      const accountId = account.rows[0]!.id;
      await sql`insert into app_user (account_id, email, user_name, role, deleted_at) values (${accountId}, 'a@x.com', 'Ann', 'member', now())`.execute(
        store.db,
      );
      await sql`insert into app_user (account_id, email, user_name, role) values (${accountId}, 'A@x.com', 'ANN', 'member')`.execute(
        store.db,
      );
      await expect(
        sql`insert into app_user (account_id, email, user_name, role) values (${accountId}, null, 'ann', 'member')`.execute(store.db),
      ).rejects.toThrow();
      await expect(
        sql`insert into app_user (account_id, email, role) values (${accountId}, 'ann', 'member')`.execute(store.db),
      ).rejects.toThrow();
      await expect(
        sql`insert into app_user (account_id, email, user_name, role) values (${accountId}, 'a@X.com', 'other', 'member')`.execute(
          store.db,
        ),
      ).rejects.toThrow();
    } finally {
      await store.close();
    }
  });
});
