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
import { freshPostgres, load, machine, median, ms, spawnServer, type LoadResult } from './lib.js';
import { bareTarget, integrationTarget, SERVER, type Target } from './platform-targets.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CONNECTIONS = 32;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
/** The three routes are measured in turn this many times; the bare figure alone moves ±10% between runs. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

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
  // All three stay up and are loaded in turn, so a slow moment of the machine hits every route alike.
  const targets = {
    bare: await bareTarget(),
    pglite: await integrationTarget({ PLINTH_DATA_DIR: join(dataDir, 'pglite') }),
    postgres: await integrationTarget({ PLINTH_DATA_DIR: join(dataDir, 'postgres'), DATABASE_URL: await freshPostgres('plinth_bench') }),
  };
  const rounds: Array<Record<keyof typeof targets, LoadResult>> = [];
  for (let round = 0; round < ROUNDS; round++) {
    const results = {} as Record<keyof typeof targets, LoadResult>;
    for (const [name, target] of Object.entries(targets) as Array<[keyof typeof targets, Target]>) {
      results[name] = await load(target.url, { connections: CONNECTIONS, seconds: SECONDS, headers: target.headers });
    }
    rounds.push(results);
  }
  for (const target of Object.values(targets)) await target.stop();
  const start = await measureStart();
  rmSync(dataDir, { recursive: true, force: true });

  const ratios = (name: 'pglite' | 'postgres') => rounds.map((r) => r[name].rps / r.bare.rps);
  const row = (label: string, name: keyof typeof targets) => {
    const results = rounds.map((r) => r[name]);
    const ratio = name === 'bare' ? '1.00' : median(ratios(name)).toFixed(2);
    const each =
      name === 'bare'
        ? ''
        : ratios(name)
            .map((x) => x.toFixed(2))
            .join(', ');
    return `| ${label} | ${results.map((r) => r.rps).join(', ')} | ${ms(median(results.map((r) => r.p50)))} | ${ms(median(results.map((r) => r.p99)))} | ${ratio} | ${each} | ${results.reduce((n, r) => n + r.errors + r.non2xx, 0)} |`;
  };
  const postgresRatio = median(ratios('postgres'));
  process.stdout.write(
    [
      '## Platform foundation (issue 2)',
      '',
      `Run: \`npm run bench:platform\` on ${new Date().toISOString().slice(0, 10)}. Machine: ${machine()}.`,
      `Load: autocannon in the benchmark process, ${CONNECTIONS} connections, ${SECONDS} s after a 2 s warm-up, ${ROUNDS} rounds of the three routes in turn; each server is its own process, logging at info. Latencies and the ratio are medians over the rounds.`,
      '',
      '| route | req/s in each round | p50 | p99 | ratio to bare | ratio in each round | errors |',
      '|---|---|---|---|---|---|---|',
      row('bare Fastify, constant JSON', 'bare'),
      row('GET /api/v1/oauth-integrations/{id}, API key, PGlite', 'pglite'),
      row('GET /api/v1/oauth-integrations/{id}, API key, PostgreSQL', 'postgres'),
      '',
      `Target: at least 0.5 of the bare route on PostgreSQL: ${postgresRatio >= 0.5 ? 'met' : 'NOT met'}.`,
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
