/**
 * Plinth's engine SQL beside Cube 0.35.81's for the same queries on the sample model, both timed in
 * one PostgreSQL on the same data (1,000,000 line items unless PEER_LINE_ITEMS says otherwise):
 * the queries are bench/peer-queries/queries.ts, Cube's SQL is bench/peer-queries/cube-sql.json
 * (see cube-sql.ts for how it is made). Each statement runs once to warm the cache, then RUNS times
 * alternating with its peer, and the medians are compared. Both answers are checked equal first.
 * Run: `npm run bench:peer-queries`. Prints a Markdown section.
 */
import { readFileSync } from 'node:fs';
import {
  PostgresWarehouse,
  compile,
  planQuery,
  postgresDialect,
  sampleModelFiles,
  writeSample,
  type Caller,
} from '../packages/semantic/src/index.js';
import { machine, median } from './lib.js';
import { PEER_QUERIES } from './peer-queries/queries.js';
import { SCHEMA } from './peer-queries/schema.js';

const URL_ = process.env.BENCH_PG_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const LINE_ITEMS = Number(process.env.PEER_LINE_ITEMS ?? 1_000_000);
const RUNS = Number(process.env.PEER_RUNS ?? 7);
const ADMIN: Caller = { groups: ['admin'], userAttributes: {}, securityContext: {} };

interface CubeSql {
  schema: string;
  queries: Array<{ name: string; sql: string; params: unknown[] }>;
}

async function sampleReady(warehouse: PostgresWarehouse): Promise<boolean> {
  const { rows } = await warehouse.query(`SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = $1`, [SCHEMA]);
  if (Number(rows[0]?.n) < 4) return false;
  const counted = await warehouse.query(`SELECT count(*)::int AS n FROM ${SCHEMA}.line_items`, []);
  return Number(counted.rows[0]?.n) === LINE_ITEMS;
}

/** Rows as sorted JSON with numbers rounded, so two planners' column names and numeric types do not matter. */
function fingerprint(rows: ReadonlyArray<Record<string, unknown>>): string {
  const norm = (value: unknown): unknown => {
    if (value instanceof Date) return value.toISOString();
    const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
    return typeof n === 'number' && Number.isFinite(n) ? Math.round(n * 1000) / 1000 : value;
  };
  return JSON.stringify(rows.map((row) => JSON.stringify(Object.values(row).map(norm))).sort());
}

async function time(warehouse: PostgresWarehouse, sql: string, params: readonly unknown[]): Promise<number> {
  const started = performance.now();
  await warehouse.query(sql, [...params], { timeoutMs: 120_000 });
  return performance.now() - started;
}

async function main(): Promise<void> {
  const cube = JSON.parse(readFileSync(new URL('./peer-queries/cube-sql.json', import.meta.url), 'utf8')) as CubeSql;
  if (cube.schema !== SCHEMA) throw new Error(`cube-sql.json reads schema ${cube.schema}; make it again with cube-sql.ts`);
  const warehouse = new PostgresWarehouse({ connectionString: URL_, max: 1 });
  try {
    if (!(await sampleReady(warehouse))) {
      process.stderr.write(`writing the sample dataset (${LINE_ITEMS} line items) into ${SCHEMA}\n`);
      await writeSample(warehouse, { schema: SCHEMA, lineItems: LINE_ITEMS });
    }
    const model = compile(sampleModelFiles(SCHEMA)).model;
    const rows: string[] = [];
    const ratios: number[] = [];
    let slower = 0;
    for (const { name, query } of PEER_QUERIES) {
      const peer = cube.queries.find((entry) => entry.name === name);
      if (!peer) throw new Error(`cube-sql.json has no query "${name}"; make it again with cube-sql.ts`);
      const plan = planQuery(model, query, { dialect: postgresDialect, caller: ADMIN, cache: false });
      const ours = await warehouse.query(plan.sql, [...plan.params], { timeoutMs: 120_000 });
      const theirs = await warehouse.query(peer.sql, peer.params, { timeoutMs: 120_000 });
      const same = fingerprint(ours.rows) === fingerprint(theirs.rows);
      const plinth: number[] = [];
      const cubeTimes: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        plinth.push(await time(warehouse, plan.sql, plan.params));
        cubeTimes.push(await time(warehouse, peer.sql, peer.params));
      }
      const ratio = median(plinth) / median(cubeTimes);
      ratios.push(ratio);
      // Within 10% or 1 ms is the same time: the medians of two statements this short move that much between runs.
      const over = median(plinth) > median(cubeTimes) * 1.1 && median(plinth) - median(cubeTimes) > 1;
      if (over) slower++;
      rows.push(
        `| ${name} | ${median(plinth).toFixed(1)} | ${median(cubeTimes).toFixed(1)} | ${ratio.toFixed(2)}${over ? ' (slower)' : ''} | ${same ? 'yes' : 'NO'} |`,
      );
    }
    const geomean = Math.exp(ratios.reduce((sum, ratio) => sum + Math.log(ratio), 0) / ratios.length);
    process.stdout.write(
      [
        '## Engine SQL beside Cube 0.35.81 in PostgreSQL (`npm run bench:peer-queries`)',
        '',
        `Run on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC. Machine: ${machine()}.`,
        `Data: the sample dataset, ${LINE_ITEMS.toLocaleString('en')} line items, in one PostgreSQL; each statement warmed once, then ${RUNS} runs alternating with its peer; medians in ms.`,
        '',
        '| query | Plinth ms | Cube ms | ratio | same answer |',
        '|---|---|---|---|---|',
        ...rows,
        '',
        `Geometric mean of the ratios: ${geomean.toFixed(2)}. Slower than Cube (over 10% and 1 ms): ${slower} of ${PEER_QUERIES.length}.`,
        '',
      ].join('\n'),
    );
  } finally {
    await warehouse.close();
  }
}

await main();
