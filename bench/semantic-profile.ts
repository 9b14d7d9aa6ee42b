/**
 * Profiling harness for the engine's fixed cost per query (issue 12). Small sample by default, so
 * the fixed cost dominates DuckDB's execution.
 *
 *   npx tsx bench/semantic-profile.ts engine|hand|plan [query name] [runs]
 *     runs one benchmark query many times through `load()`, as the hand-written SQL, or through the
 *     planner alone, for `perf record -e cpu-clock` (with `node --perf-basic-prof --import tsx`) or
 *     `node --cpu-prof`, to compare the two sides.
 *   npx tsx bench/semantic-profile.ts steps [query name] [runs]
 *     times each step of a query, interleaved, in CPU µs of the whole process (DuckDB's threads
 *     included), which a loaded machine disturbs less than wall time.
 */
import { performance } from 'node:perf_hooks';
import type { DuckDBValue } from '@duckdb/node-api';
import { compile, DuckDBWarehouse, load, planQuery, duckdbDialect, writeSample } from '@plinth/semantic';
import { median } from './lib.js';
import { BENCH_MODEL_FILES, QUERIES } from './semantic-queries.js';

const mode = process.argv[2] ?? 'engine';
const name = process.argv[3] ?? 'total';
const runs = Number(process.argv[4] ?? 3000);
const ADMIN = { groups: ['admin'], userAttributes: {}, securityContext: {} };

const warehouse = await DuckDBWarehouse.open();
const files = await writeSample(warehouse, { lineItems: Number(process.env['LINE_ITEMS'] ?? 10_000) });
const { model, valid, errors } = compile({ ...files, ...BENCH_MODEL_FILES });
if (!valid) throw new Error(JSON.stringify(errors));
const entry = QUERIES.find((q) => q.name === name);
if (!entry) throw new Error(`No benchmark query named '${name}'`);
const direct = await warehouse.instance.connect();
const plan = planQuery(model, entry.query, { dialect: duckdbDialect, caller: ADMIN });
const values = plan.params.map((v) => (typeof v === 'number' && Number.isInteger(v) ? BigInt(v) : v)) as DuckDBValue[];
const prepared = await direct.prepare(plan.sql);

const steps: Record<string, () => Promise<unknown>> = {
  engine: () => load(model, entry.query, { warehouse, caller: ADMIN }),
  plan: async () => planQuery(model, entry.query, { dialect: duckdbDialect, caller: ADMIN, cache: false }),
  driver: () => warehouse.query(plan.sql, plan.params),
  // The driver's work as the @duckdb/node-api calls it could make: parse, prepare and run per query,
  // or run a statement prepared once.
  runAndReadAll: async () => (await direct.runAndReadAll(plan.sql, values)).getRowObjectsJson(),
  preparedOnce: async () => {
    prepared.bind(values);
    return (await prepared.runAndReadAll()).getRowObjectsJson();
  },
  hand: async () => (await direct.runAndReadAll(entry.sql)).getRowObjectsJson(),
};

if (mode === 'steps') {
  const cpu = new Map<string, number>();
  const wall = new Map<string, number[]>();
  for (const [step, run] of Object.entries(steps)) {
    for (let i = 0; i < 50; i++) await run();
    cpu.set(step, 0);
    wall.set(step, []);
  }
  for (let i = 0; i < runs; i++) {
    for (const [step, run] of Object.entries(steps)) {
      const before = process.cpuUsage();
      const started = performance.now();
      await run();
      wall.get(step)?.push(performance.now() - started);
      const used = process.cpuUsage(before);
      cpu.set(step, (cpu.get(step) ?? 0) + used.user + used.system);
    }
  }
  for (const [step, total] of cpu) {
    const wallUs = median(wall.get(step) ?? []) * 1000;
    process.stdout.write(
      `${step.padEnd(14)} ${(total / runs).toFixed(0).padStart(6)} µs CPU per run, ${wallUs.toFixed(0).padStart(6)} µs wall (median)\n`,
    );
  }
} else {
  const run = steps[mode];
  if (!run || !['engine', 'hand', 'plan'].includes(mode)) throw new Error(`Unknown mode '${mode}': use engine, hand, plan or steps`);
  process.stderr.write(`${plan.sql}\n${JSON.stringify(plan.params)}\n`);
  const started = performance.now();
  for (let i = 0; i < runs; i++) await run();
  process.stderr.write(`${mode} ${name}: ${(((performance.now() - started) / runs) * 1000).toFixed(0)} µs per run\n`);
}
prepared.destroySync();
direct.closeSync();
await warehouse.close();
