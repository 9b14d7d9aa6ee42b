#!/usr/bin/env node
import { buildApp } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { createServerLog } from './http/logger.js';
import { bootstrap } from './modules/accounts/bootstrap.js';
import { createServices } from './services.js';
import { migrateToLatest } from './store/migrate.js';
import { openStore, type Store } from './store/store.js';

export async function openConfiguredStore(config: Config): Promise<Store> {
  return config.databaseUrl
    ? openStore({ kind: 'postgres', url: config.databaseUrl })
    : openStore({ kind: 'pglite', dataDir: `${config.dataDir}/pgdata` });
}

async function main() {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`plinth-server: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }

  const store = await openConfiguredStore(config);
  await migrateToLatest(store);
  const services = await createServices(store, config);
  const boot = await bootstrap(store, services, config);
  const log = createServerLog(config.logLevel);
  const app = await buildApp({ config, store, services, log });
  await app.listen({ port: config.port, host: config.host });

  if (boot.created) {
    // Printed once, on the start that created it; it is also in <data dir>/bootstrap.json (0600).
    process.stdout.write(
      `\nPlinth is ready at ${boot.baseUrl} (account "${boot.tenant}").\n` +
        `Admin API key (shown once): ${boot.apiKey}\n` +
        `Saved to ${config.dataDir}/bootstrap.json\n\n`,
    );
  }

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'finishing in-flight requests');
    await app.close();
    await store.close();
    log.flushSync();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(`plinth-server: failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
