import { loadavg } from 'node:os';
import { loadConfig } from '../packages/server/src/config.js';
import { createServices } from '../packages/server/src/services.js';
import { migrateToLatest } from '../packages/server/src/store/migrate.js';
import { openStore } from '../packages/server/src/store/store.js';

/**
 * The server's services on a fresh PGlite store in this process, with one account and one
 * deployment: what the benchmarks that time a job (builds, dbt syncs) start from. The load average
 * is read first, before the store's own start-up adds to it.
 */
export async function inProcessDeployment(pollMs: string) {
  const loadAverage = loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');
  const config = loadConfig({
    PLINTH_BASE_DOMAIN: 'bench.test',
    PLINTH_TENANT: 'bench',
    PLINTH_DATA_DIR: '/tmp/plinth-bench-unused',
    PLINTH_JOB_POLL_MS: pollMs,
  });
  const store = await openStore({ kind: 'pglite' });
  await migrateToLatest(store);
  const services = await createServices(store, config);
  const account = await services.accounts.create('bench');
  const deployment = await services.deployments.create(account.id, { name: 'bench' }, 'http://bench.test');
  return { loadAverage, config, store, services, account, deployment };
}
