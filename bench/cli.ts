/**
 * `plinth --version` and `plinth deployments list` wall time against bare `node -e 0`, all in the
 * same run and interleaved, each a fresh process. Run: `npm run bench:cli` (ROUNDS=n to change the
 * number of rounds). Builds the CLI and the server first; the server runs on an embedded store.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, median, spawnServer } from './lib.js';

const ROUNDS = Number(process.env.ROUNDS ?? 40);
const root = new URL('..', import.meta.url).pathname;
const main = join(root, 'packages/cli/dist/main.js');

execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-b', 'packages/server', 'packages/cli'], {
  cwd: root,
  stdio: 'inherit',
});

const data = mkdtempSync(join(tmpdir(), 'plinth-bench-cli-'));
const key = `sk-${'b'.repeat(40)}`;
const port = await freePort();
const server = await spawnServer(join(root, 'packages/server/dist/main.js'), {
  PORT: String(port),
  PLINTH_DATA_DIR: data,
  PLINTH_BOOTSTRAP_API_KEY: key,
  PLINTH_LOG_LEVEL: 'warn',
});
const env = {
  ...process.env,
  PLINTH_API_URL: `http://127.0.0.1:${port}`,
  PLINTH_API_KEY: key,
  XDG_CONFIG_HOME: data,
  PLINTH_NO_TELEMETRY: '1',
  PLINTH_NO_UPDATE_CHECK: '1',
};
await fetch(`http://127.0.0.1:${port}/api/v1/deployments`, {
  method: 'POST',
  headers: { authorization: `Api-Key ${key}`, 'content-type': 'application/json' },
  body: JSON.stringify({ name: 'bench' }),
});

const cases: Record<string, string[]> = {
  'node -e 0': ['-e', '0'],
  'plinth --version': [main, '--version'],
  'plinth deployments list': [main, 'deployments', 'list'],
};
const times: Record<string, number[]> = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
for (let round = -3; round < ROUNDS; round++) {
  for (const [name, args] of Object.entries(cases)) {
    const start = performance.now();
    const result = spawnSync(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const elapsed = performance.now() - start;
    if (result.status !== 0) throw new Error(`${name} failed: ${result.stderr}`);
    if (round >= 0) times[name]!.push(elapsed);
  }
}
await server.stop();
rmSync(data, { recursive: true, force: true });

const p90 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)]!;
const base = median(times['node -e 0']!);
console.log(
  `Machine: ${cpus().length} CPU (${cpus()[0]?.model}), Node ${process.version}; ${ROUNDS} interleaved rounds after 3 warm-up rounds.\n`,
);
console.log('| Command | median ms | p90 ms | × node -e 0 |\n|---|---:|---:|---:|');
for (const [name, xs] of Object.entries(times)) {
  console.log(`| \`${name}\` | ${median(xs).toFixed(1)} | ${p90(xs).toFixed(1)} | ${(median(xs) / base).toFixed(2)}× |`);
}
