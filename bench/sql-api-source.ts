/**
 * The SQL API benchmark's second warehouse: a PostgreSQL database holding `bench_rows`, and a
 * deployment reading it, so the server's memory while a large result streams is the server's own
 * (the embedded DuckDB runs inside the server process, its query state counted in the same RSS).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { deploySample, KEY, type Plinth, tokenOf } from './data-api-server.js';

const ADMIN_URL = process.env.BENCH_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DATABASE = 'plinth_bench_sql_api';

export interface PostgresSource {
  deploymentId: number;
  token: string;
  drop(): Promise<void>;
}

async function admin<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client(url);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A fresh database with `rows` rows in `bench_rows`, and a deployment of `model` reading it. */
export async function postgresSource(server: Plinth, model: string, rows: number): Promise<PostgresSource> {
  await admin(ADMIN_URL, async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
    await c.query(`CREATE DATABASE ${DATABASE}`);
  });
  const url = new URL(ADMIN_URL);
  url.pathname = `/${DATABASE}`;
  await admin(url.toString(), (c) =>
    c.query(
      `CREATE TABLE bench_rows AS SELECT x::bigint AS id, 'label ' || (x % 1000) AS label, (x % 10000) / 100.0 AS amount,
         TIMESTAMP '2024-01-01' + x * INTERVAL '1 second' AS created_at FROM generate_series(1, ${rows}) AS g(x)`,
    ),
  );
  const project = mkdtempSync(join(tmpdir(), 'plinth-bench-sql-api-pg-'));
  const deploymentId = await deploySample(server, project, { 'model/bench_rows.yml': model });
  rmSync(project, { recursive: true, force: true });
  const variables = {
    CUBEJS_DB_TYPE: 'postgres',
    CUBEJS_DB_HOST: url.hostname,
    CUBEJS_DB_PORT: url.port || '5432',
    CUBEJS_DB_NAME: DATABASE,
    CUBEJS_DB_USER: decodeURIComponent(url.username),
    ...(url.password ? { CUBEJS_DB_PASS: decodeURIComponent(url.password) } : {}),
  };
  const saved = await fetch(`${server.base}/api/v1/deployments/${deploymentId}/variables`, {
    method: 'POST',
    headers: { authorization: `Api-Key ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ variables: Object.entries(variables).map(([name, value]) => ({ name, value })) }),
  });
  if (saved.status >= 300) throw new Error(`variables: ${saved.status} ${await saved.text()}`);
  return {
    deploymentId,
    token: await tokenOf(server, deploymentId),
    drop: () => admin(ADMIN_URL, (c) => c.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`)).then(() => undefined),
  };
}
