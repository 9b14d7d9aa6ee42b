import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openTestStore, storeKinds } from '../../../test-support/stores.js';
import { down, up } from './0034_ci_run_holder.js';

describe.each(storeKinds)('migration 0034 [%s]', (kind) => {
  it('a run active before it keeps holding its lease; a run that ended holds none', async () => {
    const store = await openTestStore(kind);
    try {
      // Back to the store as it was before 0034, with an active run and a finished one made then.
      await down(store.db);
      const accountId = (await sql<{ id: number }>`insert into account (name) values ('m34') returning id`.execute(store.db)).rows[0]!.id;
      const deploymentId = (
        await sql<{ id: number }>`insert into deployment (account_id, name) values (${accountId}, 'd') returning id`.execute(store.db)
      ).rows[0]!.id;
      const insert = (state: string, key: string) =>
        sql<{ id: number }>`insert into ci_run (account_id, deployment_id, credential_key, owner, ref, state, lease_until)
          values (${accountId}, ${deploymentId}, ${key}, '{}', 'main', ${state}, now()) returning id`.execute(store.db);
      const active = (await insert('active', 'a')).rows[0]!.id;
      const passed = (await insert('passed', 'b')).rows[0]!.id;
      await up(store.db);

      const holders = await store.db
        .selectFrom('ci_run')
        .select(['id', 'holder'])
        .where('deployment_id', '=', deploymentId)
        .orderBy('id')
        .execute();
      expect(holders).toEqual([
        { id: active, holder: expect.any(String) },
        { id: passed, holder: null },
      ]);
    } finally {
      await store.close();
    }
  });
});
