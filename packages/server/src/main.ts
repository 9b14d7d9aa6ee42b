#!/usr/bin/env node
import { buildApp } from './app.js';
import { ACCOUNTS_USAGE, accountsVerb } from './commands/accounts/index.js';
import { CommandError } from './commands/command.js';
import { processRole, ROLES_USAGE, type ProcessRole } from './commands/roles.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { createServerLog } from './http/logger.js';
import type { Logger } from 'pino';
import { createJobRunner } from './jobs/index.js';
import type { JobEnv } from './jobs/kind.js';
import type { JobLog, JobRunner } from './jobs/runner.js';
import { bootstrap, UnknownTenantError } from './modules/accounts/bootstrap.js';
import { demoOnFirstStart } from './modules/demo/service.js';
import { removeDeadCheckouts } from './git/checkout-dirs.js';
import { createServices } from './services.js';
import { DataDirLockedError, lockDataDir } from './store/data-dir-lock.js';
import { migrateToLatest } from './store/migrate.js';
import { openStore, type Store } from './store/store.js';
import { workerPool } from './workers/index.js';

const USAGE = `${ROLES_USAGE}\n       ${ACCOUNTS_USAGE.slice('usage: '.length)}`;

/**
 * The embedded store is locked to this process before PGlite opens it (issue 10, security 2), and
 * unlocked when the store closes or the process exits; PostgreSQL needs no lock.
 */
export async function openConfiguredStore(config: Config): Promise<Store> {
  if (config.databaseUrl) return openStore({ kind: 'postgres', url: config.databaseUrl });
  const release = lockDataDir(config.dataDir);
  try {
    const store = await openStore({ kind: 'pglite', dataDir: `${config.dataDir}/pgdata` });
    return {
      ...store,
      async close() {
        try {
          await store.close();
        } finally {
          release();
        }
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}

/** What a server and a worker both start from: the migrated store, the services, and the thread pool sized. */
async function openServices(config: Config) {
  workerPool.resize(config.workerThreads);
  const store = await openConfiguredStore(config);
  await migrateToLatest(store);
  return { store, services: await createServices(store, config) };
}

/** The process's job runner, started on the queues its role names. */
async function startJobs(env: JobEnv, log: JobLog & Pick<Logger, 'info'>, role: ProcessRole): Promise<JobRunner> {
  const jobs = createJobRunner(env, log, role.queues);
  // Before any job clones: what a dead process left is nobody's now.
  const stale = await removeDeadCheckouts();
  if (stale > 0) log.info({ removed: stale }, 'removed the checkouts of server processes that are gone');
  await jobs.start();
  return jobs;
}

async function serve(config: Config, role: ProcessRole): Promise<void> {
  const { store, services } = await openServices(config);
  const boot = await bootstrap(store, services, config);
  const log = createServerLog(config.logLevel);
  const app = await buildApp({ config, store, services, log });
  await app.listen({ port: config.port, host: config.host });
  // The SQL API's PostgreSQL-wire listener, closed with the app (PLINTH_SQL_PORT=off for none).
  const sql = config.sql.port === null ? undefined : await services.sqlApi.listen(app);
  // Background work starts once the server serves, and stops (below) before the store closes.
  const jobs = await startJobs({ store, services, config }, app.log, role);
  // Environments made before SQL credentials came with them get theirs from a maintenance job
  // (not a migration, which has no secret box key to seal the passwords with) that the server
  // queues once it serves, so readiness waits on one insert however many environments there are,
  // and servers starting together queue one run. A failure to queue it is only logged: the next
  // start queues it again.
  await services.sqlApi
    .provisionMissingLater()
    .catch((error: unknown) => app.log.error({ err: error }, 'queueing the SQL API credentials of older environments failed'));
  // The compile thread starts with the first build, not here: warming it at start cost every
  // process some 25 MiB and competed for the CPU with the first requests, for a build that may never come.

  // Registered before the demo's wait, so a stop during the first start still closes the store cleanly.
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'finishing in-flight requests');
    // Idle keep-alive connections close at once (forceCloseConnections); a request still open after
    // the grace period (a client that stopped sending its body) is cut, so a stop always ends.
    const grace = setTimeout(() => {
      app.log.warn({ graceMs: config.shutdownGraceMs }, 'cutting the connections of requests still open after the grace period');
      app.server.closeAllConnections();
    }, config.shutdownGraceMs);
    grace.unref();
    await Promise.all([app.close(), jobs.stop().then(() => app.log.info('background jobs stopped'))]);
    clearTimeout(grace);
    // The requests and jobs that used the worker threads are done: what still runs has no one waiting.
    await workerPool.close();
    await store.close();
    log.flushSync();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  // The start that creates the account builds the demo before saying it is ready, so the first
  // `deployments token 1` and `load` a newcomer runs work at once (bounded; a failure is only logged).
  const demo = await demoOnFirstStart(services, { ...boot, enabled: config.demo }, app.log);

  // One human line on every start; the key only on the start that generated it (a supplied one is the operator's already).
  const sqlLine = sql ? ` SQL API (PostgreSQL wire) at ${config.host}:${sql.port}${config.sql.tls ? ' (TLS)' : ''}.` : '';
  process.stdout.write(`Plinth is ready at ${boot.baseUrl} (account "${boot.tenant}").${sqlLine}\n`);
  if (demo) process.stdout.write(`${demo}\n`);
  if (boot.apiKey) {
    process.stdout.write(`Admin API key (shown once): ${boot.apiKey}\nSaved to ${config.dataDir}/bootstrap.json\n`);
  }
}

/**
 * `plinth-server worker`: background jobs and schedules without an HTTP listener, on the same
 * store as the servers. It creates no account (the serving process does) and stops like a server:
 * on SIGTERM its handlers get the grace, then their jobs go back to the queue.
 */
async function work(config: Config, role: ProcessRole): Promise<void> {
  const { store, services } = await openServices(config);
  const log = createServerLog(config.logLevel);
  const jobs = await startJobs({ store, services, config }, log.logger, role);
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.logger.info({ signal }, 'finishing in-flight jobs');
    await jobs.stop();
    log.logger.info('background jobs stopped');
    await workerPool.close();
    await store.close();
    log.flushSync();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.stdout.write(`Plinth worker ${jobs.workerId} is ready (queues: ${[...jobs.queues.keys()].join(', ') || 'none'}).\n`);
}

/** `plinth-server accounts <verb> …` on the configured store; resolves to the exit code. */
export async function runAccountsCommand(
  args: readonly string[],
  config: Config,
  out = (line: string) => process.stdout.write(`${line}\n`),
) {
  const verb = accountsVerb(args[0]);
  const store = await openConfiguredStore(config);
  try {
    await migrateToLatest(store);
    await verb(args.slice(1), { config, db: store.db, out });
  } finally {
    await store.close();
  }
}

async function main(args: string[]) {
  if (args[0] === '--help' || args[0] === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const role = processRole(args);
  if (!role && args[0] !== 'accounts') throw new CommandError(`unknown command "${args[0]}"\n${USAGE}`, 2);
  const config = loadConfig();
  if (!role) await runAccountsCommand(args.slice(1), config);
  else if (role.role === 'worker') await work(config, role);
  else await serve(config, role);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  // Whatever the operator can fix is one line naming it; anything else is a failure to start.
  if (error instanceof ConfigError || error instanceof UnknownTenantError) return die(error.message, 2);
  if (error instanceof CommandError) return die(error.message, error.exitCode);
  if (error instanceof DataDirLockedError) return die(error.message, 1);
  die(`failed to start: ${error instanceof Error ? error.message : String(error)}`, 1);
});

function die(message: string, code: number): void {
  process.stderr.write(`plinth-server: ${message}\n`);
  process.exit(code);
}
