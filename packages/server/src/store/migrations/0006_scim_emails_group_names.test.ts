import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openTestStore, storeKinds } from '../../test-support/stores.js';
import { down, up } from './0006_scim_emails_group_names.js';

describe.each(storeKinds)('migration 0006 [%s]', (kind) => {
  it('refuses, naming them, groups that differ only in case; applies once they are renamed', async () => {
    const store = await openTestStore(kind);
    try {
      await down(store.db);
      const account = await sql<{ id: number }>`insert into account (name) values (${`m6-${Date.now()}`}) returning id`.execute(store.db);
      const accountId = account.rows[0]!.id;
      await sql`insert into user_group (account_id, name) values (${accountId}, 'Sales'), (${accountId}, 'sales')`.execute(store.db);
      await expect(up(store.db)).rejects.toThrow(`account ${accountId}: Sales, sales`);
      await sql`update user_group set name = 'Sales (2)' where account_id = ${accountId} and name = 'sales'`.execute(store.db);
      await up(store.db);
      await expect(sql`insert into user_group (account_id, name) values (${accountId}, 'SALES')`.execute(store.db)).rejects.toMatchObject({
        code: '23505',
      });
      const user = await sql<{ emails: unknown }>`
        insert into app_user (account_id, email, role, emails) values (${accountId}, 'm6@x.com', 'member', ${JSON.stringify([{ value: 'a@x.com' }])})
        returning emails`.execute(store.db);
      expect(user.rows[0]!.emails).toEqual([{ value: 'a@x.com' }]);
    } finally {
      await store.close();
    }
  });
});
