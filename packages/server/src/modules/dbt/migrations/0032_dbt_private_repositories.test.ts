import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openTestStore, storeKinds } from '../../../test-support/stores.js';
import { down, up } from './0032_dbt_private_repositories.js';

describe.each(storeKinds)('migration 0032 [%s]', (kind) => {
  it('integrations and syncs made before it are reached without an installation or credentials; GitHub installation ids fit', async () => {
    const store = await openTestStore(kind);
    try {
      // Back to the store as it was before 0032, with an integration and a sync made then.
      await down(store.db);
      const accountId = (await sql<{ id: number }>`insert into account (name) values ('m32') returning id`.execute(store.db)).rows[0]!.id;
      const deploymentId = (
        await sql<{ id: number }>`insert into deployment (account_id, name) values (${accountId}, 'd') returning id`.execute(store.db)
      ).rows[0]!.id;
      await sql`insert into dbt_integration (deployment_id, account_id, repository, folder, branch)
        values (${deploymentId}, ${accountId}, 'https://example.com/acme/dbt.git', '', 'main')`.execute(store.db);
      await sql`insert into dbt_sync (account_id, deployment_id, repository, folder, ref, stages)
        values (${accountId}, ${deploymentId}, 'https://example.com/acme/dbt.git', '', 'main', '[]')`.execute(store.db);
      await up(store.db);

      const integration = await store.db
        .selectFrom('dbt_integration')
        .selectAll()
        .where('deployment_id', '=', deploymentId)
        .executeTakeFirstOrThrow();
      expect(integration).toMatchObject({
        repository: 'https://example.com/acme/dbt.git',
        installation_id: null,
        repository_credentials: null,
      });
      const sync = await store.db.selectFrom('dbt_sync').selectAll().where('deployment_id', '=', deploymentId).executeTakeFirstOrThrow();
      expect(sync).toMatchObject({ repository: 'https://example.com/acme/dbt.git', installation_id: null });

      // An installation id is GitHub's, past 2^31; the sealed credentials are text of any length.
      const installationId = 3_000_000_000;
      await store.db
        .updateTable('dbt_integration')
        .set({ installation_id: installationId, repository_credentials: `v1.${'x'.repeat(4000)}` })
        .where('deployment_id', '=', deploymentId)
        .execute();
      await store.db.updateTable('dbt_sync').set({ installation_id: installationId }).where('id', '=', sync.id).execute();
      const stored = await store.db
        .selectFrom('dbt_integration')
        .select('installation_id')
        .where('deployment_id', '=', deploymentId)
        .executeTakeFirstOrThrow();
      expect(Number(stored.installation_id)).toBe(installationId);
    } finally {
      await store.close();
    }
  });
});
