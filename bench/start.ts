/**
 * Start time and idle memory of the built server (`node packages/server/dist/main.js`), beside a
 * bare Node process. Each round, on each store (PGlite; PostgreSQL too when DATABASE_URL is set, on
 * a database of its own, created and dropped):
 *   - a first start on an empty data dir (creates the account and builds the demo before its
 *     ready line), asking the demo's first /load at the ready line;
 *   - a start on that same data dir (existing store), asking the first /load likewise;
 *   - a start on it again with no request, and a first start on another empty dir with no request:
 *     the idle RSS of a server nobody has asked anything yet.
 * "Settled" RSS is VmRSS once it moved less than 1 MiB over 3 s; "idle" RSS is VmRSS 60 s after the
 * last request (BENCH_IDLE_S): V8 shrinks the young generation of a process that allocates little
 * only 20-45 s after its last busy moment (by 30 MiB), and engine threads end after 10 s idle.
 * The load average is read before each start, since the machine is shared.
 *
 *   npm run bench:start     (BENCH_ROUNDS=n, default 3; --no-write prints without appending to RESULTS.md)
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, freemem, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { median } from './lib.js';
import { bareNodeRss, IDLE_S, measureStart, ROOT, type StartFigures } from './start-run.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WRITE = !process.argv.includes('--no-write');
const KINDS = [
  { name: 'first start, /load at ready', first: true, query: true },
  { name: 'existing store, /load at ready', first: false, query: true },
  { name: 'existing store, no request', first: false, query: false },
  { name: 'first start, no request', first: true, query: false },
] as const;

// What `npm run build` does for the server: compile, then the embedded store's initdb template.
execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-b', 'packages/server'], { cwd: ROOT, stdio: 'inherit' });
execFileSync(process.execPath, [join(ROOT, 'packages/server/scripts/pglite-template.mjs')], { cwd: ROOT, stdio: 'inherit' });

const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
const loadBefore = load();
const stores = process.env.DATABASE_URL ? (['PGlite', 'PostgreSQL'] as const) : (['PGlite'] as const);

/** A database of its own for one first start, on the server DATABASE_URL names; dropped after. */
async function database(round: number, which: number): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  const name = `plinth_bench_start_${process.pid}_${round}_${which}`;
  await admin.query(`create database ${name}`);
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

interface Run extends StartFigures {
  store: string;
  kind: string;
  loadAvg: number;
}
const runs: Run[] = [];
const bare: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  bare.push(await bareNodeRss());
  for (const store of stores) {
    const dirs = [mkdtempSync(join(tmpdir(), 'plinth-bench-start-')), mkdtempSync(join(tmpdir(), 'plinth-bench-start-'))];
    const dbs = store === 'PostgreSQL' ? [await database(round, 0), await database(round, 1)] : [];
    try {
      for (const kind of KINDS) {
        const which = kind.first && !kind.query ? 1 : 0;
        const loadAvg = loadavg()[0]!;
        const figures = await measureStart(join(dirs[which]!, '.plinth'), dbs[which]?.url, kind.query);
        runs.push({ store, kind: kind.name, loadAvg, ...figures });
        process.stderr.write(`${store}, ${kind.name}: ${JSON.stringify(figures)} (load ${loadAvg.toFixed(2)})\n`);
      }
    } finally {
      for (const db of dbs) await db.drop();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    }
  }
}
const loadAfter = load();

const mib = (x: number) => x.toFixed(0);
const secs = (x: number) => (x / 1000).toFixed(2);
const each = (xs: number[], f: (x: number) => string) => `${f(median(xs))} (${xs.map(f).join(', ')})`;
const code = execFileSync('git', ['describe', '--always', '--dirty'], { cwd: ROOT, encoding: 'utf8' }).trim();
const cpu = cpus()[0]?.model ?? 'unknown CPU';
const lines = [
  `## Start time and idle memory (\`npm run bench:start\`, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, code ${code})`,
  '',
  `Machine: \`nproc\` ${cpus().length} (${cpu}), ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM (${(freemem() / 2 ** 30).toFixed(1)} GiB free at the end), Node ${process.version}.`,
  `Load average (1, 5, 15 min): ${loadBefore} before, ${loadAfter} after; the 1-minute one before each start is in the last column.`,
  `Bare \`node -e "setInterval(()=>{},1000)"\`: ${each(bare, mib)} MiB RSS. ${ROUNDS} rounds; medians first, each run in brackets.`,
  '',
  `| store | start | ready, s | first /load, s | settled RSS, MiB | RSS idle ${IDLE_S} s, MiB | peak RSS, MiB | threads | load |`,
  '|---|---|---:|---:|---:|---:|---:|---:|---|',
];
for (const store of stores) {
  for (const kind of KINDS) {
    const mine = runs.filter((r) => r.store === store && r.kind === kind.name);
    const loads = mine.flatMap((r) => (r.loadMs === undefined ? [] : [r.loadMs]));
    const col = (pick: (r: Run) => number, format: (x: number) => string) => each(mine.map(pick), format);
    const cells = [
      store,
      kind.name,
      col((r) => r.readyMs, secs),
      loads.length ? each(loads, secs) : '—',
      col((r) => r.settledRssMiB, mib),
      col((r) => r.idleRssMiB, mib),
      mib(median(mine.map((r) => r.peakRssMiB))),
      String(median(mine.map((r) => r.threads))),
      mine.map((r) => r.loadAvg.toFixed(1)).join(', '),
    ];
    lines.push(`| ${cells.join(' | ')} |`);
  }
}
/** The targets, on PGlite: ready under 3 s on an existing store, under 8 s on a first start, idle under 200 MB (191 MiB). */
const pglite = (kind: string) => runs.filter((r) => r.store === 'PGlite' && r.kind === kind);
const verdict = (value: number, limit: number, unit: string) =>
  `${value.toFixed(unit === 's' ? 2 : 0)} ${unit}, ${value < limit ? 'met' : 'NOT met'}`;
lines.push(
  '',
  `Targets on PGlite (medians): ready on an existing store under 3 s: ${verdict(median(pglite(KINDS[1].name).map((r) => r.readyMs)) / 1000, 3, 's')}; ` +
    `first start under 8 s: ${verdict(median(pglite(KINDS[0].name).map((r) => r.readyMs)) / 1000, 8, 's')}; ` +
    `RSS idle ${IDLE_S} s under 200 MB (191 MiB), no request: ${verdict(median(pglite(KINDS[2].name).map((r) => r.idleRssMiB)), 191, 'MiB')}, ` +
    `after the first /load: ${verdict(median(pglite(KINDS[1].name).map((r) => r.idleRssMiB)), 191, 'MiB')}.`,
);
const text = `${lines.join('\n')}\n`;
process.stdout.write(text);
if (WRITE) appendFileSync(join(ROOT, 'bench/RESULTS.md'), `\n${text}`);
