import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openTestStore, storeKinds } from '../../../test-support/stores.js';
import { down, up } from './0021_engine_versions_run.js';

describe.each(storeKinds)('migration 0021 [%s]', (kind) => {
  it('records the version each pinned deployment runs, once per account and version', async () => {
    const store = await openTestStore(kind);
    try {
      // Back to the store as it was before 0021, with deployments the earlier round created.
      await down(store.db);
      const account = await sql<{ id: number }>`insert into account (name) values ('m21') returning id`.execute(store.db);
      const accountId = account.rows[0]!.id;
      const deployment = (channel: string | null, version: string | null) =>
        sql<{ id: number }>`insert into deployment (account_id, name, release_channel, release_channel_version)
          values (${accountId}, 'd', ${channel}, ${version}) returning id`.execute(store.db);
      await deployment('latest', '1.3.0');
      const newer = (await deployment('release', '1.3.0')).rows[0]!.id;
      await deployment('release', '1.2.0');
      await deployment(null, null);
      await up(store.db);
      const runs = await store.db
        .selectFrom('engine_version_run')
        .select(['version', 'channel', 'deployment_id'])
        .where('account_id', '=', accountId)
        .orderBy('version')
        .execute();
      expect(runs).toEqual([
        { version: '1.2.0', channel: 'release', deployment_id: newer + 1 },
        { version: '1.3.0', channel: 'release', deployment_id: newer },
      ]);
    } finally {
      await store.close();
    }
  });
});
