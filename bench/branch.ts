/**
 * Branch creation and dev-mode fork on a 500-file model against an empty model (issue 13): both
 * are one insert pointing at an existing commit, so the times should match within noise. Runs
 * in-process on the embedded store (PGlite) through the HTTP routes (app.inject), interleaving
 * the two models, and reports medians. Run: `npm run bench:branch` (ROUNDS=n to change rounds).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { buildApp } from '../packages/server/src/app.js';
import { loadConfig } from '../packages/server/src/config.js';
import { createServices } from '../packages/server/src/services.js';
import { migrateToLatest } from '../packages/server/src/store/migrate.js';
import { openStore } from '../packages/server/src/store/store.js';
import { median } from './lib.js';

const ROUNDS = Number(process.env.ROUNDS ?? 200);
const FILES = 500;

const config = loadConfig({ PLINTH_BASE_DOMAIN: 'bench.test', PLINTH_TENANT: 'bench', PLINTH_DATA_DIR: '/tmp/plinth-bench-unused' });
const store = await openStore({ kind: 'pglite' });
await migrateToLatest(store);
const services = await createServices(store, config);
const app = await buildApp({ config, store, services, log: false });
await app.ready();

const account = await services.accounts.create('bench');
const user = await services.users.create(account.id, { email: 'bench@example.com', role: 'admin', displayName: 'bench' });
const key = await services.credentials.createApiKey(account.id, user.id, { name: 'bench', role: 'admin', deploymentIds: null });
const principal = {
  kind: 'apiKey',
  accountId: account.id,
  credentialId: key.id,
  userId: user.id,
  role: 'admin',
  deploymentIds: null,
} as const;
const headers = { host: `bench.bench.test`, authorization: `Api-Key ${key.key}` };

/** A deployment whose deploy branch holds `files` cube files (distinct contents, ~300 bytes each). */
async function deploymentWith(files: number): Promise<number> {
  const { id } = await services.deployments.create(account.id, { name: `d${files}` }, 'http://localhost');
  const main = await services.dataModel.target(principal, id);
  const contents = Array.from(
    { length: files },
    (_, i) => `cubes:\n  - name: cube_${i}\n    sql_table: public.t_${i}\n${'    # padding\n'.repeat(20)}`,
  );
  const hashes = await services.dataModel.storeBlobs(account.id, contents);
  const entries = Object.fromEntries(hashes.map((hash, i) => [`model/cubes/cube_${i}.yml`, hash]));
  await services.dataModel.commitTree(principal, main, { entries, baseCommitId: main.head_commit_id, message: `${files} files` });
  return id;
}

async function timed(method: 'POST', url: string, body: unknown): Promise<number> {
  const start = performance.now();
  const response = await app.inject({ method, url, headers, payload: body as object });
  const elapsed = performance.now() - start;
  if (response.statusCode >= 300) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
  return elapsed;
}

const models = { empty: await deploymentWith(0), [`${FILES} files`]: await deploymentWith(FILES) };
const times: Record<string, number[]> = {};
let n = 0;
for (let round = -10; round < ROUNDS; round++) {
  for (const [label, id] of Object.entries(models)) {
    const base = `/build/api/v1/deployments/${id}`;
    const create = await timed('POST', `${base}/branches`, { name: `b${n++}` });
    const fork = await timed('POST', `${base}/dev-mode`, { branch: 'main' });
    if (round < 0) continue; // warm-up: JIT, prepared statements, caches
    (times[`create-branch, ${label}`] ??= []).push(create);
    (times[`dev-mode fork, ${label}`] ??= []).push(fork);
  }
}
await app.close();
await store.close();

const p90 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)]!;
const cpu = /^model name\s*:\s*(.*)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? cpus()[0]?.model;
const nproc = execFileSync('nproc', { encoding: 'utf8' }).trim();
const load = execFileSync('uptime', { encoding: 'utf8' })
  .trim()
  .replace(/^.*load average:\s*/, '');
console.log(
  `Machine: nproc ${nproc}, ${cpu}, Node ${process.version}; load average ${load}; ${ROUNDS} interleaved rounds after 10 warm-up rounds, embedded store (PGlite), through the HTTP routes in process.\n`,
);
console.log('| Operation | median ms | p90 ms |\n|---|---:|---:|');
for (const [name, xs] of Object.entries(times)) console.log(`| ${name} | ${median(xs).toFixed(2)} | ${p90(xs).toFixed(2)} |`);
