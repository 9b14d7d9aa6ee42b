/**
 * `plinth deploy` of a 500-file model in which 5 files changed, against the first full deploy of
 * it: requests made, request bytes sent and wall time, on the embedded store (PGlite). Run:
 * `npm run bench:deploy` (ROUNDS=n to change the number of redeploys). Builds the server first and
 * runs it as its own process; the CLI runs in this process (its real command tree), so its
 * requests are counted by wrapping fetch. The build each deploy queues is awaited before the next
 * deploy, so the compile never competes with the measured upload. TRACE=1 prints each request and
 * its time on stderr.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IO } from '../packages/cli/src/core/io.js';
import { run } from '../packages/cli/src/run.js';
import { freePort, machine, median, spawnServer } from './lib.js';

const FILES = 500;
const CHANGED = 5;
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const root = new URL('..', import.meta.url).pathname;

execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-b', 'packages/server'], { cwd: root, stdio: 'inherit' });

const data = mkdtempSync(join(tmpdir(), 'plinth-bench-deploy-'));
const key = `sk-${'d'.repeat(40)}`;
const port = await freePort();
const server = await spawnServer(join(root, 'packages/server/dist/main.js'), {
  PORT: String(port),
  PLINTH_DATA_DIR: join(data, 'store'),
  PLINTH_BOOTSTRAP_API_KEY: key,
  PLINTH_LOG_LEVEL: 'warn',
});
const url = `http://127.0.0.1:${port}`;
const headers = { authorization: `Api-Key ${key}`, 'content-type': 'application/json' };
const deployment = (await (await fetch(`${url}/api/v1/deployments`, { method: 'POST', headers, body: '{"name":"bench"}' })).json()) as {
  id: number;
};

const project = join(data, 'project');
const cube = (i: number, table = `t${i}`) =>
  `cubes:\n  - name: c${i}\n    sql_table: ${table}\n    dimensions:\n      - name: id\n        sql: id\n        type: number\n        primary_key: true\n    measures:\n      - name: count\n        type: count\n`;
mkdirSync(join(project, 'model/cubes'), { recursive: true });
for (let i = 0; i < FILES; i++) writeFileSync(join(project, `model/cubes/c${i}.yml`), cube(i));

/** Requests and body bytes the CLI sends while `work` runs. */
const realFetch = globalThis.fetch;
let requests = 0;
let puts = 0;
let bytes = 0;
globalThis.fetch = (input, init) => {
  requests++;
  if (init?.method === 'PUT') puts++;
  bytes += typeof init?.body === 'string' ? Buffer.byteLength(init.body) : 0;
  const t = performance.now();
  return realFetch(input, init).then((r) => {
    if (process.env.TRACE)
      console.error(
        init?.method ?? 'GET',
        new URL(String(input)).pathname.split('/').slice(-2).join('/'),
        (performance.now() - t).toFixed(0),
        'ms',
      );
    return r;
  });
};

const io: IO = {
  stdout: { write: () => true },
  stderr: { write: () => true },
  readStdin: async () => '',
  env: {
    PLINTH_API_URL: url,
    PLINTH_API_KEY: key,
    XDG_CONFIG_HOME: data,
    HOME: data,
    PLINTH_NO_TELEMETRY: '1',
    PLINTH_NO_UPDATE_CHECK: '1',
  },
  stdinIsTTY: false,
  promptSecret: async () => '',
  stdoutIsTTY: false,
  stderrIsTTY: false,
  platform: process.platform,
  homedir: data,
  background: () => {},
  wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

async function deploy() {
  requests = puts = bytes = 0;
  const start = performance.now();
  const code = await run(['deploy', String(deployment.id), '--directory', project], io);
  const ms = performance.now() - start;
  if (code !== 0) throw new Error(`plinth deploy exited ${code}`);
  const figures = { requests, puts, bytes, ms };
  await buildDone();
  return figures;
}

/** Waits until the branch's newest build is no longer building (bounded, so a slow build cannot hang the bench). */
async function buildDone() {
  for (let i = 0; i < 600; i++) {
    const status = (await (await realFetch(`${url}/api/v1/deployments/${deployment.id}/build-status`, { headers })).json()) as {
      status?: string;
    };
    if (status.status !== 'building') return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const full = await deploy();
const redeploys = [];
for (let round = 0; round < ROUNDS; round++) {
  for (let i = 0; i < CHANGED; i++)
    writeFileSync(join(project, `model/cubes/c${round * CHANGED + i}.yml`), cube(round * CHANGED + i, `r${round}`));
  redeploys.push(await deploy());
}
globalThis.fetch = realFetch;
await server.stop();
rmSync(data, { recursive: true, force: true });

const row = (name: string, f: { requests: number; puts: number; bytes: number; ms: number }) =>
  `| ${name} | ${f.requests} | ${f.puts} | ${(f.bytes / 1024).toFixed(1)} KiB | ${f.ms.toFixed(0)} ms |`;
const mid = {
  requests: median(redeploys.map((r) => r.requests)),
  puts: median(redeploys.map((r) => r.puts)),
  bytes: median(redeploys.map((r) => r.bytes)),
  ms: median(redeploys.map((r) => r.ms)),
};
console.log(`Machine: ${machine()}. Embedded store (PGlite), ${FILES} files, ${ROUNDS} redeploys of ${CHANGED} changed files (medians).\n`);
console.log('| deploy | requests | file uploads | request bytes | wall time |\n|---|---:|---:|---:|---:|');
console.log(row(`first, all ${FILES} files`, full));
console.log(row(`${CHANGED} changed (median of ${ROUNDS})`, mid));
console.log(`\nRedeploy wall times: ${redeploys.map((r) => `${r.ms.toFixed(0)} ms`).join(', ')}.`);
const met = mid.puts <= CHANGED && mid.requests <= 10 && Math.max(...redeploys.map((r) => r.ms)) < 1000;
console.log(`Targets (at most ${CHANGED} uploads, 10 requests, under 1 s): ${met ? 'met' : 'NOT met'}.`);
