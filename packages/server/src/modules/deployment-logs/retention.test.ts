import { expect, it } from 'vitest';
import { describeOnStores } from '../../test-support/server.js';
import { LOG_RETENTION_MS } from './public.js';

const MINUTE = 60_000;

describeOnStores('deployment logs: retention', (server) => {
  it('the sweep deletes lines older than the retention and keeps the others', async () => {
    const { services, store, jobs } = server();
    const account = await server().newAccount();
    const deployment = await services.deployments.create(account.id, { name: 'd' }, 'http://localhost');
    const now = Date.now();
    const line = (message: string, at: number) => ({
      account_id: account.id,
      deployment_id: deployment.id,
      source: 'production' as const,
      pod: 'p',
      container: 'builder',
      level: 'info' as const,
      message,
      created_at: new Date(at),
    });
    await store.db
      .insertInto('build_log')
      .values([line('expired', now - LOG_RETENTION_MS - MINUTE), line('kept', now - LOG_RETENTION_MS + MINUTE), line('fresh', now)])
      .execute();

    jobs.queue.now = () => now;
    const { id } = await jobs.queue.enqueue({ kind: 'retention.sweep' });
    await jobs.runUntilIdle();
    expect(await jobs.queue.find(id)).toMatchObject({ state: 'succeeded' });
    const left = await services.deploymentLogs.list(account.id, deployment.id, {});
    expect(left.map((l) => l.message)).toEqual(['kept', 'fresh']);
  });
});
