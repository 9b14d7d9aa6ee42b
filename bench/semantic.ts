/**
 * Semantic engine benchmark (issue 6): typical dashboard queries on the one-million-line-item sample
 * in DuckDB, through the engine (`load`: plan, execute, shape) against the same hand-written SQL run
 * directly on a DuckDB connection in the same run; planning time alone; compile time of 500 cubes.
 * The engine's fixed cost is the median over rounds of (engine time − hand-written SQL time) of the
 * same round: what binding, conversion and shaping add to one query, in µs. The engine keeps a plan per
 * model, caller and query, so a dashboard's repeated query is planned once; the last column adds the
 * planner's own time back, for a query planned afresh.
 *
 *   npm run bench:semantic -w @plinth/semantic            (LINE_ITEMS=… to change the scale)
 */
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { compile, duckdbDialect, DuckDBWarehouse, load, planQuery, writeSample } from '@plinth/semantic';
import { median } from './lib.js';
import { BENCH_MODEL_FILES, QUERIES, sameAnswer } from './semantic-queries.js';

const LINE_ITEMS = Number(process.env['LINE_ITEMS'] ?? 1_000_000);
const ROUNDS = Number(process.env['ROUNDS'] ?? 60);
const ADMIN = { groups: ['admin'], userAttributes: {}, securityContext: {} };

function bigModel(): Record<string, string> {
  const cubes = Array.from({ length: 500 }, (_, i) => {
    const dims = Array.from({ length: 9 }, (_, k) => `      - name: d${k}\n        sql: c${k}\n        type: string\n`).join('');
    const measures = Array.from({ length: 10 }, (_, k) => `      - name: m${k}\n        sql: v${k}\n        type: sum\n`).join('');
    const join =
      i > 0 ? `    joins:\n      - name: c${i - 1}\n        relationship: many_to_one\n        sql: "{CUBE}.p = {c${i - 1}.id}"\n` : '';
    return `  - name: c${i}\n    sql_table: t${i}\n${join}    dimensions:\n      - name: id\n        sql: id\n        type: number\n        primary_key: true\n${dims}    measures:\n${measures}`;
  });
  return { 'model/big.yml': `cubes:\n${cubes.join('')}` };
}

async function main(): Promise<void> {
  // The machine's load decides how far the figures can be trusted: written down before anything runs.
  const loadAverage = loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');
  const warehouse = await DuckDBWarehouse.open();
  let t = performance.now();
  const files = await writeSample(warehouse, { lineItems: LINE_ITEMS });
  const loadSeconds = (performance.now() - t) / 1000;
  const { model, valid, errors } = compile({ ...files, ...BENCH_MODEL_FILES });
  if (!valid) throw new Error(JSON.stringify(errors));
  const direct = await warehouse.instance.connect();

  const rows: string[] = [];
  for (const q of QUERIES) {
    // A fast wrong answer is no answer: the engine must agree with the hand-written SQL first.
    const { columns } = planQuery(model, q.query, { dialect: duckdbDialect, caller: ADMIN });
    const disagreement = sameAnswer(
      (await load(model, q.query, { warehouse, caller: ADMIN })).data,
      columns,
      (await direct.runAndReadAll(q.sql)).getRowsJson(),
    );
    if (disagreement) throw new Error(`'${q.name}': the engine and the hand-written SQL disagree: ${disagreement}`);
    for (let i = 0; i < 3; i++) {
      await load(model, q.query, { warehouse, caller: ADMIN });
      await direct.runAndReadAll(q.sql);
    }
    const engine: number[] = [];
    const hand: number[] = [];
    const fixed: number[] = [];
    const runEngine = async (): Promise<number> => {
      const started = performance.now();
      await load(model, q.query, { warehouse, caller: ADMIN });
      return performance.now() - started;
    };
    const runHand = async (): Promise<number> => {
      const started = performance.now();
      (await direct.runAndReadAll(q.sql)).getRowObjectsJson();
      return performance.now() - started;
    };
    for (let i = 0; i < ROUNDS; i++) {
      // Interleaved so drift in the machine affects both sides alike, and each side goes first in
      // every other round: the second of a pair reads the tables the first has just brought into
      // the CPU's caches.
      const engineFirst = i % 2 === 0;
      const first = await (engineFirst ? runEngine() : runHand());
      const second = await (engineFirst ? runHand() : runEngine());
      const [engineMs, handMs] = engineFirst ? [first, second] : [second, first];
      engine.push(engineMs);
      hand.push(handMs);
      fixed.push(engineMs - handMs);
    }
    const planRuns = 5000;
    t = performance.now();
    for (let i = 0; i < planRuns; i++) planQuery(model, q.query, { dialect: duckdbDialect, caller: ADMIN, cache: false });
    const planMs = (performance.now() - t) / planRuns;
    const e = median(engine);
    const h = median(hand);
    const fixedUs = median(fixed) * 1000;
    rows.push(
      `| ${q.name} | ${e.toFixed(2)} | ${h.toFixed(2)} | ${(e / h).toFixed(2)}× | ${fixedUs.toFixed(0)} µs | ${(planMs * 1000).toFixed(0)} µs | ${((e + planMs) / h).toFixed(2)}× |`,
    );
  }
  direct.closeSync();
  await warehouse.close();

  const big = bigModel();
  const compileTimes: number[] = [];
  for (let i = 0; i < 5; i++) {
    t = performance.now();
    const r = compile(big);
    compileTimes.push(performance.now() - t);
    if (!r.valid || r.cubesCount !== 500) throw new Error('500-cube model did not compile');
  }

  process.stdout.write(
    [
      `Sample: ${LINE_ITEMS.toLocaleString('en-US')} line items written to in-memory DuckDB in ${loadSeconds.toFixed(1)} s; median of ${ROUNDS} runs per query after 3 warm-up runs.`,
      `Load average at the start (1, 5, 15 min): ${loadAverage} on ${cpus().length} cores.`,
      '',
      '| Query | Engine (load), ms | Hand-written SQL on DuckDB, ms | Ratio | Engine − hand-written, per round (median) | Planning alone (afresh) | Ratio, planned afresh |',
      '|---|---:|---:|---:|---:|---:|---:|',
      ...rows,
      '',
      "Engine − hand-written is the engine's fixed cost per query (binding, conversion, shaping, and finding the kept plan: the",
      "engine plans a query once per model and caller) where the planned SQL runs as fast as the hand-written one, as for 'total';",
      'elsewhere it also holds the difference between the two SQL texts. Planning alone is the cost of a plan made afresh.',
      '',
      `Compile of a 500-cube model (20 members each): median ${median(compileTimes).toFixed(0)} ms of 5 runs.`,
      '',
    ].join('\n'),
  );
}

await main();
