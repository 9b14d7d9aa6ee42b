/**
 * Signed-embedding benchmarks (issue 3), on PGlite and, when DATABASE_URL is set, PostgreSQL:
 *   1. generate-session in read-only mode with 3 groups and 3 attributes, 32 connections;
 *   2. bulk provisioning of 10,000 new users in requests of 1,000.
 * Run: `npx tsx bench/embed.ts` (DATABASE_URL=postgres://… for the PostgreSQL rows; STORES=postgres for those
 * alone).
 * The server runs in a child process on 127.0.0.1 so the load generator does not share its event loop.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { request as httpRequest } from 'node:http';
import autocannon from 'autocannon';
import { machine } from './lib.js';

const SELF = fileURLToPath(import.meta.url);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 32);
const SECONDS = Number(process.env.SECONDS ?? 15);
const USERS = 10_000;
const BATCH = 1_000;

interface Ready {
  port: number;
  host: string;
  adminKey: string;
  deploymentId: number;
}

if (process.argv[2] === 'serve') await serve(process.argv[3] as 'pglite' | 'postgres');
else await main();

async function main() {
  console.log(`Machine: ${machine()}`);
  const kinds = (process.env.STORES?.split(',') ?? (process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'])) as Array<
    'pglite' | 'postgres'
  >;
  for (const kind of kinds) {
    const child = fork(SELF, ['serve', kind], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const ready = await new Promise<Ready>((resolve, reject) => {
      child.once('message', (m) => resolve(m as Ready));
      child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
    });
    try {
      await bulk(kind, ready);
      await sessions(kind, ready);
    } finally {
      await stop(child);
    }
  }
}

async function sessions(kind: string, ready: Ready) {
  // Page views of known users: the pool is the bulk benchmark's users, provisioned into the default embed tenant.
  let n = 0;
  const body = () =>
    JSON.stringify({
      deploymentId: ready.deploymentId,
      externalId: `bulk-${n++ % USERS}`,
      groups: ['sales', 'emea', 'managers'],
      userAttributes: [
        { name: 'region', value: 'emea' },
        { name: 'level', value: n % 7 },
        { name: 'accounts', value: ['a', 'b'] },
      ],
      securityContext: { tenant: 'acme' },
    });
  const run = (duration: number) =>
    autocannon({
      url: `http://127.0.0.1:${ready.port}/api/v1/embed/generate-session`,
      connections: CONNECTIONS,
      duration,
      requests: [{ method: 'POST', setupRequest: (req) => ({ ...req, body: body() }) }],
      headers: { host: ready.host, authorization: `Api-Key ${ready.adminKey}`, 'content-type': 'application/json' },
    });
  await run(3);
  const result = await run(SECONDS);
  console.log(
    `[${kind}] generate-session, read-only, 3 groups + 3 attributes, ${CONNECTIONS} connections, ${SECONDS}s: ` +
      `${Math.round(result.requests.average)} sessions/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ` +
      `non-2xx ${result.non2xx}, errors ${result.errors}`,
  );
}

async function bulk(kind: string, ready: Ready) {
  const started = performance.now();
  let succeeded = 0;
  for (let offset = 0; offset < USERS; offset += BATCH) {
    const users = Array.from({ length: BATCH }, (_, i) => ({
      externalId: `bulk-${offset + i}`,
      email: `bulk-${offset + i}@example.com`,
      userProfile: { displayName: `Bulk ${offset + i}` },
      groups: ['sales'],
    }));
    const response = await post(
      ready.port,
      '/api/v1/embed-tenants/bench-sessions/users',
      {
        host: ready.host,
        authorization: `Api-Key ${ready.adminKey}`,
        'content-type': 'application/json',
      },
      JSON.stringify({ users }),
    );
    const result = JSON.parse(response.body) as { succeeded: unknown[]; failed: unknown[] };
    if (response.status !== 200 || result.failed.length > 0) throw new Error(`bulk failed: ${JSON.stringify(result).slice(0, 300)}`);
    succeeded += result.succeeded.length;
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(`[${kind}] bulk provisioning: ${succeeded} new users in requests of ${BATCH}: ${seconds.toFixed(2)} s`);
}

/** fetch() refuses to set Host, and the account is chosen by Host. */
function post(port: number, path: string, headers: Record<string, string>, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method: 'POST', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function stop(child: ChildProcess) {
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** The child: a migrated store, two seeded accounts, the app listening on 127.0.0.1. */
async function serve(kind: 'pglite' | 'postgres') {
  const { buildApp } = await import('../packages/server/src/app.js');
  const { loadConfig } = await import('../packages/server/src/config.js');
  const { createServices } = await import('../packages/server/src/services.js');
  const { migrateToLatest } = await import('../packages/server/src/store/migrate.js');
  const { openStore } = await import('../packages/server/src/store/store.js');

  const schema = `plinth_bench_${randomBytes(4).toString('hex')}`;
  const store =
    kind === 'postgres'
      ? await openStore({ kind: 'postgres', url: process.env.DATABASE_URL!, schema, poolSize: 20 })
      : await openStore({ kind: 'pglite' });
  await migrateToLatest(store);
  const config = loadConfig({
    PLINTH_BASE_DOMAIN: 'plinth.bench',
    PLINTH_MAX_EXTERNAL_USERS: '1000000',
    PLINTH_DATA_DIR: '/tmp/plinth-bench-unused',
    PLINTH_LOG_LEVEL: 'silent',
  });
  const services = await createServices(store, config);
  const app = await buildApp({ config, store, services, log: false });

  const seed = async (name: string) => {
    const account = await services.accounts.create(name);
    const user = await store.db
      .insertInto('app_user')
      .values({ account_id: account.id, email: `admin@${name}.example.com`, role: 'admin' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const key = await services.credentials.createApiKey(account.id, user.id, { name: 'bench', role: 'admin', deploymentIds: null });
    const deployment = await services.deployments.create(account.id, { name: 'bench' }, 'http://localhost');
    for (const group of ['sales', 'emea', 'managers']) await services.groups.create(account.id, { name: group });
    await services.userAttributes.create(account.id, { name: 'region', type: 'string' });
    await services.userAttributes.create(account.id, { name: 'level', type: 'number' });
    await services.userAttributes.create(account.id, { name: 'accounts', type: 'string_array' });
    return { host: `${name}.${config.baseDomain}`, key: key.key, deploymentId: deployment.id };
  };
  const sessions = await seed('bench-sessions');
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };

  // The signal handler cannot wait; the process exits at the end of this cleanup.
  process.once(
    'SIGTERM',
    () =>
      void (async () => {
        await app.close();
        // Other sessions on a shared server can deadlock a DROP; a few tries are enough.
        for (let i = 0; kind === 'postgres' && i < 5; i++) {
          try {
            await store.db.schema.dropSchema(schema).ifExists().cascade().execute();
            break;
          } catch {
            await new Promise((resolve) => setTimeout(resolve, 500));
          }
        }
        await store.close();
        process.exit(0);
      })(),
  );
  const ready: Ready = {
    port,
    host: sessions.host,
    adminKey: sessions.key,
    deploymentId: sessions.deploymentId,
  };
  process.send!(ready);
}
