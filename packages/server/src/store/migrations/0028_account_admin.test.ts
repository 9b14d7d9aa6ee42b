import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openTestStore, storeKinds } from '../../test-support/stores.js';

describe.each(storeKinds)('migration 0028 [%s]', (kind) => {
  it('themes are one row per account, outlive the user who set them, and go with the account; last_login_at starts null', async () => {
    const store = await openTestStore(kind);
    try {
      const db = store.db;
      const account = (await sql<{ id: number }>`insert into account (name) values ('m28') returning id`.execute(db)).rows[0]!.id;
      const user = (
        await sql<{ id: number; last_login_at: Date | null }>`insert into app_user (account_id, email, role)
          values (${account}, 'a@x.com', 'admin') returning id, last_login_at`.execute(db)
      ).rows[0]!;
      expect(user.last_login_at).toBeNull();
      for (const table of ['embed_theme', 'app_theme'] as const) {
        await db.insertInto(table).values({ account_id: account, theme: '{"primaryColor":"#fff"}', updated_by: user.id }).execute();
        await expect(db.insertInto(table).values({ account_id: account, theme: '{}', updated_by: null }).execute()).rejects.toThrow();
      }
      await db.deleteFrom('app_user').where('id', '=', user.id).execute();
      expect((await db.selectFrom('app_theme').select('updated_by').executeTakeFirstOrThrow()).updated_by).toBeNull();
      expect((await db.selectFrom('embed_theme').select('theme').executeTakeFirstOrThrow()).theme).toEqual({ primaryColor: '#fff' });
      await sql`delete from account where id = ${account}`.execute(db);
      expect(await db.selectFrom('embed_theme').selectAll().execute()).toEqual([]);
      expect(await db.selectFrom('app_theme').selectAll().execute()).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
