/**
 * Issue 2 benchmarks: authenticated GET /api/v1/oauth-integrations/{id} against a bare Fastify
 * route in the same run, on PGlite and PostgreSQL; and server start to ready on an empty and an
 * existing data dir. Run: `npm run bench:platform` (builds first). Prints a Markdown section.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { load, machine, ms, spawnServer, type LoadResult } from './lib.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SERVER = join(ROOT, 'packages/server/dist/main.js');
const BARE = join(ROOT, 'bench/bare-server.mjs');
const KEY = 'sk-benchbenchbenchbenchbenchbench01';
const PG_ADMIN_URL = process.env.BENCH_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PG_BENCH_DB = 'plinth_bench';
const CONNECTIONS = 32;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

async function freshPostgres(): Promise<string> {
  const admin = new pg.Client(PG_ADMIN_URL);
  await admin.connect();
  await admin.query(`drop database if exists ${PG_BENCH_DB} with (force)`);
  await admin.query(`create database ${PG_BENCH_DB}`);
  await admin.end();
  return PG_ADMIN_URL.replace(/\/[^/]*$/, `/${PG_BENCH_DB}`);
}

async function measureIntegrationGet(env: Record<string, string>): Promise<LoadResult> {
  const server = await spawnServer(SERVER, { ...env, PLINTH_BOOTSTRAP_API_KEY: KEY });
  try {
    const base = `http://127.0.0.1:${server.port}`;
    const headers = { authorization: `Api-Key ${KEY}`, 'content-type': 'application/json' };
    const created = await fetch(`${base}/api/v1/oauth-integrations`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        name: 'bench', type: 'snowflake', authUrl: 'https://a.example.com/auth', tokenUrl: 'https://a.example.com/token',
        clientId: 'client', clientSecret: 'secret', redirectUri: 'https://a.example.com/cb', scopes: ['a'], config: { x: 1 },
      }),
    });
    const { id } = (await created.json()) as { id: number };
    return await load(`${base}/api/v1/oauth-integrations/${id}`, { connections: CONNECTIONS, seconds: SECONDS, headers });
  } finally {
    await server.stop();
  }
}

async function measureStart(): Promise<{ empty: number; existing: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'plinth-bench-start-'));
  try {
    const first = await spawnServer(SERVER, { PLINTH_DATA_DIR: dir });
    await first.stop();
    const second = await spawnServer(SERVER, { PLINTH_DATA_DIR: dir });
    await second.stop();
    return { empty: first.readyMs, existing: second.readyMs };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  execFileSync('npx', ['tsc', '-b', 'packages/semantic', 'packages/server'], { cwd: ROOT, stdio: 'inherit' });
  const dataDir = mkdtempSync(join(tmpdir(), 'plinth-bench-'));
  const bare = await spawnServer(BARE, {});
  const bareResult = await load(`http://127.0.0.1:${bare.port}/constant`, { connections: CONNECTIONS, seconds: SECONDS });
  await bare.stop();
  const pglite = await measureIntegrationGet({ PLINTH_DATA_DIR: dataDir });
  const postgres = await measureIntegrationGet({ PLINTH_DATA_DIR: dataDir, DATABASE_URL: await freshPostgres() });
  const start = await measureStart();
  rmSync(dataDir, { recursive: true, force: true });

  const row = (name: string, r: LoadResult) =>
    `| ${name} | ${r.rps} | ${ms(r.p50)} | ${ms(r.p99)} | ${(r.rps / bareResult.rps).toFixed(2)} | ${r.errors + r.non2xx} |`;
  process.stdout.write(
    [
      '## Platform foundation (issue 2)',
      '',
      `Run: \`npm run bench:platform\` on ${new Date().toISOString().slice(0, 10)}. Machine: ${machine()}.`,
      `Load: autocannon in the benchmark process, ${CONNECTIONS} connections, ${SECONDS} s after a 2 s warm-up; each server is its own process, logging at info.`,
      '',
      '| route | req/s | p50 | p99 | ratio to bare | errors |',
      '|---|---|---|---|---|---|',
      row('bare Fastify, constant JSON', bareResult),
      row('GET /api/v1/oauth-integrations/{id}, API key, PGlite', pglite),
      row('GET /api/v1/oauth-integrations/{id}, API key, PostgreSQL', postgres),
      '',
      `Target: at least 0.5 of the bare route on PostgreSQL: ${postgres.rps / bareResult.rps >= 0.5 ? 'met' : 'NOT met'}.`,
      '',
      '| start to ready (/readyz answers) | time |',
      '|---|---|',
      `| empty data dir (migrations + bootstrap) | ${ms(start.empty)} |`,
      `| existing data dir | ${ms(start.existing)} |`,
      '',
    ].join('\n'),
  );
}

await main();
