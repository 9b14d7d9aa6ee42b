/**
 * SQL API benchmark: the built server (`packages/server/dist/main.js`) with its PostgreSQL-wire
 * listener on a free port, the sample model deployed through the API and built, the sample data
 * (LINE_ITEMS line items) in the deployment's embedded DuckDB file, plus a `bench_rows` table of
 * BIG_ROWS rows and a cube over it whose dimensions are its columns, so one SQL query can ask for
 * every row. One data API token is both the HTTP caller and the SQL login (user `token`).
 *
 *   1. Latency: the pushed-down queries of the SQL API's query set (packages/semantic/src/
 *      test-support/sql-equivalents.ts: those one semantic query answers whole) through node-postgres
 *      on one connection, simple and extended protocol, and the very semantic query each becomes
 *      through HTTP GET `/cubejs-api/v1/load`, one request at a time, interleaved. Twice: with the
 *      result cache warm for both surfaces (default TTL, every query asked once on each first) and
 *      with it off (a server with PLINTH_RESULT_CACHE_TTL_MS=0: every request runs on DuckDB).
 *   2. CONNECTIONS (64) node-postgres connections asking the same queries for --duration seconds.
 *   3. The server's VmRSS (/proc) while psql reads a BIG_ROWS-row result (simple query, then
 *      COPY … TO STDOUT) and a tenth of it, on the cache-off server: from the embedded DuckDB, and
 *      from a PostgreSQL database (BENCH_PG_ADMIN_URL) whose query state is outside the process.
 *
 *   npm run bench:sql-api   (--duration S, default 60; ROUNDS, default 10; LINE_ITEMS, default 200000;
 *                            BIG_ROWS, default 1000000; --no-build skips the build; --no-write prints only;
 *                            BENCH_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' profiles the servers)
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { compile, DuckDBWarehouse, meta, sampleModelFiles, translateSql, writeSample } from '@plinth/semantic';
import { EQUIVALENTS } from '../packages/semantic/src/test-support/sql-equivalents.js';
import { deploySample, plinth, ROOT, tokenOf } from './data-api-server.js';
import { freePort, machine } from './lib.js';
import { type BenchQuery, concurrent, connect, footprint, http, latencies, type SqlLogin, wire } from './sql-api-runs.js';
import { limitProbe, report } from './sql-api-report.js';
import { postgresSource } from './sql-api-source.js';

const option = (name: string) => {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
};
const DURATION = Number(option('--duration') ?? 60);
const ROUNDS = Number(process.env.ROUNDS ?? 10);
const LINE_ITEMS = Number(process.env.LINE_ITEMS ?? 200_000);
const BIG_ROWS = Number(process.env.BIG_ROWS ?? 1_000_000);
const CONNECTIONS = 64;
const WRITE = !process.argv.includes('--no-write');
const log = (line: string) => process.stderr.write(`${line}\n`);

const BIG_MODEL = `cubes:
  - name: bench_rows
    sql_table: bench_rows
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true, public: true }
      - { name: label, sql: label, type: string }
      - { name: amount, sql: amount, type: number }
      - { name: created_at, sql: created_at, type: time }
    measures:
      - { name: count, type: count }
`;

if (!process.argv.includes('--no-build'))
  execFileSync('npx', ['tsc', '-b', 'packages/semantic', 'packages/server'], { cwd: ROOT, stdio: 'inherit' });
const loadStart = loadavg().map((n) => n.toFixed(1));
const files = { ...sampleModelFiles(), 'model/bench_rows.yml': BIG_MODEL };
const { model, valid, errors } = compile(files);
if (!valid) throw new Error(JSON.stringify(errors));
const { cubes } = meta(model);
// The query set's SQL that one semantic query answers whole, and that query, as the SQL API sends it to the data API.
const queries: BenchQuery[] = [];
for (const { sql } of EQUIVALENTS) {
  const translated = await translateSql(sql, cubes).catch(() => undefined);
  if (translated) queries.push({ sql, query: translated.query });
}

const dataDir = mkdtempSync(join(tmpdir(), 'plinth-bench-sql-api-'));
const sqlPort = await freePort();
// The large result is read through the data API, whose row cap is raised to the engine's most (50,000).
const env = { PLINTH_SQL_PORT: String(sqlPort), PLINTH_DATA_API_MAX_LIMIT: '50000', PLINTH_LOG_LEVEL: 'warn' };
let server = await plinth(dataDir, env);
const id = await deploySample(server, dataDir, files);
const token = await tokenOf(server, id);
// The server opens the deployment's DuckDB file when it first needs it: stopped while it is written.
await server.stop();
log(`deployment ${id} built; writing ${LINE_ITEMS} line items and ${BIG_ROWS} bench rows`);
mkdirSync(join(dataDir, 'warehouses'), { recursive: true });
const writer = await DuckDBWarehouse.open({ path: join(dataDir, 'warehouses', `${id}.duckdb`) });
await writeSample(writer, { lineItems: LINE_ITEMS });
await writer.query(
  `CREATE TABLE bench_rows AS SELECT x AS id, 'label ' || (x % 1000) AS label, (x % 10000) / 100.0 AS amount,
     TIMESTAMP '2024-01-01' + to_seconds(x) AS created_at FROM range(1, ${BIG_ROWS + 1}) AS g(x)`,
  [],
);
await writer.close();
server = await plinth(dataDir, env);
const login: SqlLogin = { host: '127.0.0.1', port: sqlPort, database: `deployment-${id}`, user: 'token', password: token };

async function latencyRun(base: string) {
  const client = await connect(login);
  const surfaces = { simple: wire(client, 'simple'), extended: wire(client, 'extended'), http: http(base, id, token) };
  // A fast wrong answer is no answer: the same rows on each surface first.
  for (const q of queries) {
    const counts = await Promise.all(Object.values(surfaces).map((surface) => surface(q)));
    if (new Set(counts).size !== 1) throw new Error(`'${q.sql}': rows per surface ${counts.join(', ')}`);
  }
  const result = await latencies(server.child.pid!, surfaces, queries, ROUNDS);
  await client.end();
  return result;
}

log(`latency, cache warm: ${queries.length} queries x ${ROUNDS} rounds`);
const warm = await latencyRun(server.base);
log(`${CONNECTIONS} connections for ${DURATION} s`);
const load = await concurrent(login, queries, CONNECTIONS, DURATION);
await server.stop();

server = await plinth(dataDir, { ...env, PLINTH_RESULT_CACHE_TTL_MS: '0' });
log('latency, cache off');
const cold = await latencyRun(server.base);
log('large results');
const probe = await limitProbe(login, BIG_ROWS);
const pid = server.child.pid!;
const big = (rows: number) => `SELECT id, label, amount, created_at FROM bench_rows LIMIT ${rows}`;
const sizes = probe.bigRefused ? [probe.cap / 10, probe.cap] : [BIG_ROWS / 10, BIG_ROWS];
log(`a PostgreSQL source with ${BIG_ROWS} bench rows`);
const source = await postgresSource(server, BIG_MODEL, BIG_ROWS);
const logins = {
  DuckDB: login,
  PostgreSQL: { ...login, database: `deployment-${source.deploymentId}`, password: source.token },
};
const memory = [];
for (const [warehouse, through] of Object.entries(logins)) {
  for (const rows of sizes) {
    memory.push({ how: `${warehouse}, simple query`, asked: rows, ...(await footprint(pid, through, big(rows))) });
    memory.push({ how: `${warehouse}, COPY TO STDOUT`, asked: rows, ...(await footprint(pid, through, `COPY (${big(rows)}) TO STDOUT`)) });
  }
}
await source.drop();
await server.stop();
rmSync(dataDir, { recursive: true, force: true });

const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
const section = report({
  commit,
  machine: machine(),
  loadStart,
  loadEnd: loadavg().map((n) => n.toFixed(1)),
  duration: DURATION,
  rounds: ROUNDS,
  lineItems: LINE_ITEMS,
  bigRows: BIG_ROWS,
  queries,
  warm,
  cold,
  load,
  probe,
  memory,
});
process.stdout.write(section);
if (WRITE) appendFileSync(join(ROOT, 'bench/RESULTS.md'), `\n${section}`);
if (load.errors > 0) process.exitCode = 1;
