/**
 * Server CPU time per request: bare Fastify against the authenticated platform route, on PGlite
 * and PostgreSQL. Requests-per-second ratios on a 2-core machine depend on how the load generator
 * and the server share the cores; the CPU each server process spends per request (read from
 * /proc before and after a fixed number of requests) does not, so it tells a change in our code
 * from a change in the machine. Run: `npm run bench:platform-cpu` (builds first). Prints Markdown.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { freshPostgres, machine, median } from './lib.js';
import { bareTarget, integrationTarget, type Target } from './platform-targets.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CONNECTIONS = 32;
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 60_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
/** /proc/<pid>/stat counts in clock ticks, 100 a second on Linux. */
const MICROSECONDS_PER_TICK = 10_000;

/** User and system CPU time the process has used so far, in microseconds. */
function cpuOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * MICROSECONDS_PER_TICK;
}

async function cpuPerRequest(target: Target): Promise<number> {
  const run = (amount: number) => autocannon({ url: target.url, headers: target.headers ?? {}, connections: CONNECTIONS, amount });
  await run(REQUESTS / 10); // warm-up: JIT and caches
  const before = cpuOf(target.pid);
  const result = await run(REQUESTS);
  const spent = cpuOf(target.pid) - before;
  if (result.errors || result.non2xx) throw new Error(`${target.url}: ${result.errors} errors, ${result.non2xx} non-2xx answers`);
  return spent / REQUESTS;
}

async function main() {
  execFileSync('npx', ['tsc', '-b', 'packages/semantic', 'packages/server'], { cwd: ROOT, stdio: 'inherit' });
  const dataDir = mkdtempSync(join(tmpdir(), 'plinth-bench-cpu-'));
  const load = () => execFileSync('cat', ['/proc/loadavg'], { encoding: 'utf8' }).split(' ').slice(0, 1)[0];
  const loadBefore = load();
  // All three stay up and are loaded in turn, so a busy moment of the machine hits every server alike.
  const targets = {
    bare: await bareTarget(),
    pglite: await integrationTarget({ PLINTH_DATA_DIR: join(dataDir, 'pglite') }),
    postgres: await integrationTarget({
      PLINTH_DATA_DIR: join(dataDir, 'postgres'),
      DATABASE_URL: await freshPostgres('plinth_bench_cpu'),
    }),
  };
  const spent: Record<keyof typeof targets, number[]> = { bare: [], pglite: [], postgres: [] };
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const name of Object.keys(targets) as Array<keyof typeof targets>) spent[name].push(await cpuPerRequest(targets[name]));
    }
  } finally {
    for (const target of Object.values(targets)) await target.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  const bare = median(spent.bare);
  const row = (label: string, name: keyof typeof targets) =>
    `| ${label} | ${median(spent[name]).toFixed(1)} µs | ${Math.min(...spent[name]).toFixed(1)} µs | ${name === 'bare' ? '1.00' : (bare / median(spent[name])).toFixed(2)} |`;
  process.stdout.write(
    [
      `## Platform route: server CPU per request (\`npm run bench:platform-cpu\`, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC)`,
      '',
      `Machine: ${machine()}. Load average ${loadBefore} before, ${load()} after.`,
      `Load: autocannon in the benchmark process, ${CONNECTIONS} connections, ${REQUESTS} requests per round after ${REQUESTS / 10} to warm up, ${ROUNDS} rounds of the three servers in turn; each server is its own process, logging at info.`,
      '',
      '| server | CPU per request, median | lowest round | bare / this (the CPU ratio) |',
      '|---|---:|---:|---:|',
      row('bare Fastify, constant JSON', 'bare'),
      row('GET /api/v1/oauth-integrations/{id}, API key, PGlite', 'pglite'),
      row('GET /api/v1/oauth-integrations/{id}, API key, PostgreSQL', 'postgres'),
      '',
    ].join('\n'),
  );
}

await main();
