/**
 * Pre-aggregations benchmark: a fact table in PostgreSQL (ROWS rows, 10 million for the issue's
 * figures) as a deployment's warehouse, a model with one daily rollup partitioned by month, and a
 * dashboard of six queries the rollup answers. In one process on the embedded store, it reports:
 *   - the full rollup build (every partition) and an incremental refresh of the last partition,
 *     with the source rows per second each reached;
 *   - each dashboard query answered by the engine from the warehouse and from the rollup (same
 *     results checked), and the speed-up (geometric mean);
 *   - p50/p99 of rollup-served `load`s through HTTP with the result cache off (the first request
 *     included: it reads the Parquet files while the in-memory copy is made).
 *
 *   DATABASE_URL=postgres://… ROWS=10000000 npm run bench:pre-aggregations   (ROUNDS=n, REQUESTS=n; prints Markdown)
 *
 * Keep ROWS small on a shared machine: the default is 1 million.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadRequest, PostgresWarehouse } from '@plinth/semantic';
import { buildApp } from '../packages/server/src/app.js';
import { loadConfig } from '../packages/server/src/config.js';
import { createJobRunner } from '../packages/server/src/jobs/index.js';
import { createServices } from '../packages/server/src/services.js';
import { migrateToLatest } from '../packages/server/src/store/migrate.js';
import { openStore } from '../packages/server/src/store/store.js';
import { machine, median } from './lib.js';

const DATABASE_URL = process.env.DATABASE_URL;
if (!DATABASE_URL) throw new Error('DATABASE_URL must name the PostgreSQL that holds the fact table');
const ROWS = Number(process.env.ROWS ?? 1_000_000);
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const REQUESTS = Number(process.env.REQUESTS ?? 300);
/** Two years of facts, ending at the start of this month. */
const END = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 1));
const START = new Date(Date.UTC(END.getUTCFullYear() - 2, END.getUTCMonth(), 1));
const day = (date: Date) => date.toISOString().slice(0, 10);

const schema = `plinth_bench_rollups_${randomBytes(4).toString('hex')}`;
const source = new PostgresWarehouse({ connectionString: DATABASE_URL, max: 2 });
await source.query(`CREATE SCHEMA "${schema}"`, []);
const spanSeconds = (END.getTime() - START.getTime()) / 1000;
const filled = performance.now();
await source.query(
  `CREATE TABLE "${schema}".facts AS SELECT i AS id,
     TIMESTAMP '${day(START)}' + (((i * 7919) % ${Math.floor(spanSeconds)}) || ' seconds')::interval AS created_at,
     (ARRAY['completed','processing','shipped','cancelled'])[1 + i % 4] AS status,
     (ARRAY['emea','amer','apac'])[1 + (i / 7) % 3] AS region,
     round(((i * 31) % 10000) / 100.0, 2)::numeric(10,2) AS amount
   FROM generate_series(1::bigint, ${ROWS}) AS t(i)`,
  [],
);
await source.query(`ANALYZE "${schema}".facts`, []);
const fillMs = performance.now() - filled;

const MODEL = `cubes:
  - name: facts
    sql_table: ${schema}.facts
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true }
      - { name: status, sql: status, type: string }
      - { name: region, sql: region, type: string }
      - { name: created_at, sql: created_at, type: time }
    measures:
      - { name: count, type: count }
      - { name: amount, type: sum, sql: amount }
      - { name: top, type: max, sql: amount }
    pre_aggregations:
      - name: daily
        measures: [count, amount, top]
        dimensions: [status, region]
        time_dimension: created_at
        granularity: day
        partition_granularity: month
`;
const range = [day(START), day(new Date(END.getTime() - 86_400_000))];
const DASHBOARD = [
  { measures: ['facts.count', 'facts.amount'], timeDimensions: [{ dimension: 'facts.created_at', dateRange: range }] },
  { measures: ['facts.count'], timeDimensions: [{ dimension: 'facts.created_at', granularity: 'month', dateRange: range }] },
  { measures: ['facts.amount'], dimensions: ['facts.status'], timeDimensions: [{ dimension: 'facts.created_at', dateRange: range }] },
  {
    measures: ['facts.count', 'facts.top'],
    dimensions: ['facts.region'],
    timeDimensions: [{ dimension: 'facts.created_at', granularity: 'week', dateRange: range }],
  },
  {
    measures: ['facts.amount'],
    dimensions: ['facts.region', 'facts.status'],
    filters: [{ member: 'facts.status', operator: 'equals', values: ['completed'] }],
    timeDimensions: [{ dimension: 'facts.created_at', granularity: 'quarter', dateRange: range }],
  },
  {
    measures: ['facts.count'],
    timeDimensions: [
      { dimension: 'facts.created_at', granularity: 'day', dateRange: [day(new Date(END.getTime() - 30 * 86_400_000)), range[1]] },
    ],
  },
];

const dataDir = mkdtempSync(join(tmpdir(), 'plinth-bench-rollups-'));
const config = loadConfig({
  PLINTH_BASE_DOMAIN: 'bench.test',
  PLINTH_TENANT: 'bench',
  PLINTH_DATA_DIR: dataDir,
  PLINTH_RESULT_CACHE_TTL_MS: '0',
});
const store = await openStore({ kind: 'pglite' });
await migrateToLatest(store);
const services = await createServices(store, config);
const app = await buildApp({ config, store, services, log: false });
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

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
const { id: deploymentId } = await services.deployments.create(account.id, { name: 'rollups' }, base);
const url = new URL(DATABASE_URL);
const variables = [
  ['CUBEJS_DB_TYPE', 'postgres'],
  ['CUBEJS_DB_HOST', url.hostname],
  ['CUBEJS_DB_PORT', url.port || '5432'],
  ['CUBEJS_DB_NAME', decodeURIComponent(url.pathname.slice(1))],
  ['CUBEJS_DB_USER', decodeURIComponent(url.username)],
  ...(url.password ? [['CUBEJS_DB_PASS', decodeURIComponent(url.password)]] : []),
].map(([name, value]) => ({ name: name!, value: value! }));
await services.deploymentVariables.set(account.id, deploymentId, { variables });
const main = await services.dataModel.target(principal, deploymentId);
const hashes = await services.dataModel.storeBlobs(account.id, [MODEL]);
const { commitId } = await services.dataModel.commitTree(principal, main, {
  entries: { 'model/facts.yml': hashes[0]! },
  baseCommitId: main.head_commit_id,
  message: 'facts',
});
await services.builds.queueBuild({ accountId: account.id, deploymentId, branchName: 'main', commitId, trigger: 'deploy' });

const runner = createJobRunner({ store, services, config });
const built = performance.now();
await runner.runUntilIdle();
const buildMs = performance.now() - built;
const rollups = async () => (await services.preAggregationOperations.list(principal, deploymentId)).items[0]!;
const full = await rollups();
if (full.builtPartitions !== full.partitionCount) throw new Error(`rollup not built: ${full.lastError}`);
const last = full.partitions.at(-1)!;
await services.preAggregationOperations.build(principal, deploymentId, { partitions: [last.name] });
const refreshed = performance.now();
await runner.runUntilIdle();
const refreshMs = performance.now() - refreshed;
const lastRows = (
  await source.query(`SELECT count(*) AS n FROM "${schema}".facts WHERE created_at >= $1 AND created_at < $2`, [
    last.rangeStart,
    last.rangeEnd,
  ])
).rows[0]!['n'];

const minted = await fetch(`${base}/api/v1/deployments/${deploymentId}/token`, {
  method: 'POST',
  headers: { host: 'bench.bench.test', authorization: `Api-Key ${key.key}`, 'content-type': 'application/json' },
  body: '{}',
});
const token = ((await minted.json()) as { cubeApiToken: string }).cubeApiToken;
const build = (await services.builds.latestBuilt(account.id, deploymentId, 'main'))!;
const model = await services.dataApi.modelOfBuild(account.id, build.buildId, build.commitId);
const warehouse = await services.dataApi.warehouseOf(account.id, deploymentId);
const offered = await services.preAggregations.available(build.buildId, model);
// As the data API reads them: from the process's in-memory copy of the rollup's files, once made.
services.preAggregations.forQuery(offered);
await services.preAggregations.copiesMade();
const available = services.preAggregations.forQuery(offered);
const duck = await services.preAggregations.duck();

const lines: string[] = [];
const ratios: number[] = [];
for (const [i, query] of DASHBOARD.entries()) {
  const time = async (options: Parameters<typeof loadRequest>[2]) => {
    const times: number[] = [];
    let answer: { data: unknown; usedPreAggregations?: unknown } | undefined;
    for (let round = 0; round < ROUNDS; round++) {
      const started = performance.now();
      answer = (await loadRequest(model, query, options)) as typeof answer;
      times.push(performance.now() - started);
    }
    return { ms: median(times), answer: answer! };
  };
  const fromWarehouse = await time({ warehouse });
  const fromRollup = await time({ warehouse, rollups: available, rollupStore: duck });
  if (!fromRollup.answer.usedPreAggregations) throw new Error(`query ${i + 1} was not answered from the rollup`);
  // Rows of equal sort keys come in either order: the same rows is what must hold.
  const rowsOf = (data: unknown) => (data as unknown[]).map((row) => JSON.stringify(row)).sort();
  const same = JSON.stringify(rowsOf(fromWarehouse.answer.data)) === JSON.stringify(rowsOf(fromRollup.answer.data));
  if (!same && process.env.BENCH_DEBUG) {
    const [w, r] = [fromWarehouse.answer.data as unknown[], fromRollup.answer.data as unknown[]];
    const at = w.findIndex((row, k) => JSON.stringify(row) !== JSON.stringify(r[k]));
    console.error(`query ${i + 1}: ${w.length} vs ${r.length} rows; first difference at ${at}:`, w[at], r[at]);
  }
  ratios.push(fromWarehouse.ms / fromRollup.ms);
  lines.push(
    `| ${i + 1} | ${fromWarehouse.ms.toFixed(1)} | ${fromRollup.ms.toFixed(2)} | ${(fromWarehouse.ms / fromRollup.ms).toFixed(0)}× | ${same ? 'yes' : 'NO'} |`,
  );
}

const latencies: number[] = [];
for (let k = 0; k < REQUESTS; k++) {
  const query = DASHBOARD[k % DASHBOARD.length]!;
  const started = performance.now();
  const response = await fetch(`${base}/d/${deploymentId}/cubejs-api/v1/load?query=${encodeURIComponent(JSON.stringify(query))}`, {
    headers: { host: 'bench.bench.test', authorization: token },
  });
  const body = (await response.json()) as { usedPreAggregations?: unknown; error?: string };
  latencies.push(performance.now() - started);
  if (!body.usedPreAggregations) throw new Error(`HTTP load ${k} was not answered from the rollup: ${body.error ?? ''}`);
}
latencies.sort((a, b) => a - b);
const p = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
const geomean = Math.exp(ratios.reduce((sum, r) => sum + Math.log(r), 0) / ratios.length);

console.log(`## Pre-aggregations (${ROWS.toLocaleString('en')} fact rows in PostgreSQL)\n`);
console.log(
  `${machine()}; load average ${loadavg()
    .map((n) => n.toFixed(1))
    .join(', ')}; fact table written in ${(fillMs / 1000).toFixed(1)} s.\n`,
);
console.log(
  `- Full build: ${full.partitionCount} monthly partitions, ${full.rows} rollup rows, ${(buildMs / 1000).toFixed(1)} s with the compile (${(full.buildTimeMs / 1000).toFixed(1)} s in partitions), ${Math.round(ROWS / (full.buildTimeMs / 1000)).toLocaleString('en')} source rows/s`,
);
console.log(
  `- Incremental refresh of the last partition (${Number(lastRows).toLocaleString('en')} source rows): ${refreshMs.toFixed(0)} ms, ${Math.round(Number(lastRows) / (refreshMs / 1000)).toLocaleString('en')} source rows/s`,
);
console.log(
  `- HTTP load from the rollup, result cache off, ${REQUESTS} requests in turn: p50 ${p(0.5).toFixed(1)} ms, p99 ${p(0.99).toFixed(1)} ms\n`,
);
console.log('| query | warehouse ms | rollup ms | faster | same result |\n|---|---|---|---|---|');
for (const line of lines) console.log(line);
console.log(`\nGeometric mean: ${geomean.toFixed(0)}× faster from the rollup.`);

await app.close();
await services.dataApi.close();
await services.preAggregations.close();
await store.close();
await source.query(`DROP SCHEMA "${schema}" CASCADE`, []);
await source.close();
rmSync(dataDir, { recursive: true, force: true });
