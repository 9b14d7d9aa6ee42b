/**
 * Profiling harness for the engine's fixed cost per query (issue 12): runs one benchmark query many
 * times through `load()` or as the hand-written SQL, so that `node --cpu-prof` or callgrind can
 * compare the two. Small sample by default, so the fixed cost dominates DuckDB's execution.
 *
 *   npx tsx bench/semantic-profile.ts engine|hand|plan [query name] [runs]
 */
import { performance } from 'node:perf_hooks';
import { compile, DuckDBWarehouse, load, planQuery, duckdbDialect, writeSample } from '@plinth/semantic';
import { QUERIES } from './semantic-queries.js';

const mode = process.argv[2] ?? 'engine';
const name = process.argv[3] ?? 'total';
const runs = Number(process.argv[4] ?? 3000);
const ADMIN = { groups: ['admin'], userAttributes: {}, securityContext: {} };

const warehouse = await DuckDBWarehouse.open();
const files = await writeSample(warehouse, { lineItems: Number(process.env['LINE_ITEMS'] ?? 10_000) });
const { model, valid, errors } = compile(files);
if (!valid) throw new Error(JSON.stringify(errors));
const entry = QUERIES.find((q) => q.name === name);
if (!entry) throw new Error(`No benchmark query named '${name}'`);
const direct = await warehouse.instance.connect();
const plan = planQuery(model, entry.query, { dialect: duckdbDialect, caller: ADMIN });
process.stderr.write(`${plan.sql}\n${JSON.stringify(plan.params)}\n`);

const started = performance.now();
for (let i = 0; i < runs; i++) {
  if (mode === 'engine') await load(model, entry.query, { warehouse, caller: ADMIN });
  else if (mode === 'hand') (await direct.runAndReadAll(entry.sql)).getRowObjectsJson();
  else if (mode === 'plan') planQuery(model, entry.query, { dialect: duckdbDialect, caller: ADMIN });
  else throw new Error(`Unknown mode '${mode}': use engine, hand or plan`);
}
process.stderr.write(`${mode} ${name}: ${(((performance.now() - started) / runs) * 1000).toFixed(0)} µs per run\n`);
direct.closeSync();
await warehouse.close();
