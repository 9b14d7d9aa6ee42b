import { randomBytes } from 'node:crypto';
import { PostgresWarehouse, type Warehouse } from '@plinth/semantic';
import type { ApiKeyPrincipal } from '../../http/principal.js';
import type { Services } from '../../services.js';
import type { RollupPartitionRow } from '../../store/schema.js';
import type { TestAccount } from '../../test-support/server.js';

export type SourceKind = 'duckdb' | 'postgres';
export const sourceKinds: SourceKind[] = process.env.DATABASE_URL ? ['duckdb', 'postgres'] : ['duckdb'];

const DAY_MS = 86_400_000;
/** Hourly events over the last 80 days: three or four monthly partitions, the last ones inside a 7-day update window. */
export const EVENT_DAYS = 80;

/** Midnight UTC `days` days before today, as SQL and ISO date text. */
export function dayBefore(days: number): string {
  const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
  return new Date(today - days * DAY_MS).toISOString().slice(0, 10);
}

/**
 * A cube of events (its answers reused for a minute at most) with a daily rollup partitioned by
 * month, refreshed hourly and incrementally over the last 7 days unless `refreshKey` says otherwise.
 */
export function eventsModel(
  table: string,
  extra = '',
  from = `sql_table: ${table}`,
  refreshKey = '{ every: 1 hour, incremental: true, update_window: 7 day }',
): Record<string, string> {
  return {
    'model/events.yml': `cubes:
  - name: events
    ${from}
    refresh_key: { every: 1 minute }
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true }
      - { name: kind, sql: kind, type: string }
      - { name: created_at, sql: created_at, type: time }
    measures:
      - { name: count, type: count }
      - { name: amount, type: sum, sql: amount }${extra}
    pre_aggregations:
      - name: daily
        measures: [count, amount]
        dimensions: [kind]
        time_dimension: created_at
        granularity: day
        partition_granularity: month
        refresh_key: ${refreshKey}
`,
  };
}

/** The query the rollup answers: by kind and month over whole days of the data. */
export const eventsQuery = () => ({
  measures: ['events.count', 'events.amount'],
  dimensions: ['events.kind'],
  timeDimensions: [{ dimension: 'events.created_at', granularity: 'month', dateRange: [dayBefore(EVENT_DAYS), dayBefore(1)] }],
  order: { 'events.created_at': 'asc', 'events.kind': 'asc' },
});

export interface EventSource {
  table: string;
  /** Adds an event at `at` (ISO), as a change in the warehouse would. */
  add(at: string, amount: string): Promise<void>;
  /** Changes the amount of the event created at `at` and stamps its `updated_at` with the current time. */
  change(at: string): Promise<void>;
  close(): Promise<void>;
}

const fill = (id: string, start: string, series: string) =>
  `SELECT ${id} AS id, CASE WHEN ${id} % 3 = 0 THEN 'a' ELSE 'b' END AS kind,
     CAST(${id} % 7 AS DECIMAL(10,2)) + 0.25 AS amount,
     TIMESTAMP '${start} 00:00:00' + ${id} * INTERVAL '1 hour' AS created_at,
     TIMESTAMP '${start} 00:00:00' + ${id} * INTERVAL '1 hour' AS updated_at ${series}`;

/** The statement `change` runs: the row is updated as of now, later than any row was created. */
const changeOf = (table: string, at: string) =>
  `UPDATE ${table} SET amount = amount + 1, updated_at = CAST(now() AS TIMESTAMP) WHERE created_at = TIMESTAMP '${at}'`;

/** The events table in the deployment's warehouse: its embedded DuckDB, or a schema of the test PostgreSQL named by its variables. */
export async function eventSource(
  services: Services,
  admin: ApiKeyPrincipal,
  deploymentId: number,
  kind: SourceKind,
): Promise<EventSource> {
  const start = dayBefore(EVENT_DAYS);
  const hours = EVENT_DAYS * 24;
  if (kind === 'duckdb') {
    const write = (sql: string) => services.dataApi.warehouses.write(admin.accountId, deploymentId, (w) => w.query(sql, []));
    // Replaced: the stores of one test file share its data dir, and their deployment ids meet.
    await write(`CREATE OR REPLACE TABLE events AS ${fill('CAST(i AS INTEGER)', start, `FROM range(0, ${hours}) AS t(i)`)}`);
    let next = hours;
    return {
      table: 'events',
      add: (at, amount) => write(`INSERT INTO events VALUES (${next++}, 'a', ${amount}, TIMESTAMP '${at}', TIMESTAMP '${at}')`),
      change: (at) => write(changeOf('events', at)),
      close: async () => undefined,
    };
  }
  const url = new URL(process.env.DATABASE_URL!);
  const schema = `plinth_rollups_${randomBytes(5).toString('hex')}`;
  const warehouse: Warehouse = new PostgresWarehouse({ connectionString: url.toString(), max: 2 });
  await warehouse.query(`CREATE SCHEMA "${schema}"`, []);
  await warehouse.query(`CREATE TABLE "${schema}".events AS ${fill('i', start, `FROM generate_series(0, ${hours - 1}) AS t(i)`)}`, []);
  const variables = [
    ['CUBEJS_DB_TYPE', 'postgres'],
    ['CUBEJS_DB_HOST', url.hostname],
    ['CUBEJS_DB_PORT', url.port || '5432'],
    ['CUBEJS_DB_NAME', decodeURIComponent(url.pathname.slice(1))],
    ['CUBEJS_DB_USER', decodeURIComponent(url.username)],
    ...(url.password ? [['CUBEJS_DB_PASS', decodeURIComponent(url.password)]] : []),
  ].map(([name, value]) => ({ name: name!, value: value! }));
  await services.deploymentVariables.set(admin.accountId, deploymentId, { variables });
  let next = hours;
  return {
    table: `${schema}.events`,
    add: async (at, amount) => {
      await warehouse.query(`INSERT INTO "${schema}".events VALUES (${next++}, 'a', ${amount}, TIMESTAMP '${at}', TIMESTAMP '${at}')`, []);
    },
    change: async (at) => {
      await warehouse.query(changeOf(`"${schema}".events`, at), []);
    },
    close: async () => {
      await warehouse.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`, []);
      await warehouse.close();
    },
  };
}

/** A model whose rollup reads a literal query: it builds on any warehouse, the embedded one with no data included. */
export const literalModel = (): Record<string, string> =>
  eventsModel('', '', `sql: "SELECT 1 AS id, 'a' AS kind, 1.5 AS amount, TIMESTAMP '2024-01-02 03:00:00' AS created_at"`);

/** A manifest row of a built partition, for tests of what readers make of the manifest. */
export function partitionRow(fields: Pick<RollupPartitionRow, 'name'> & Partial<RollupPartitionRow>): RollupPartitionRow {
  return {
    id: 1,
    account_id: 1,
    deployment_id: 1,
    build_id: 1,
    rollup_id: 'orders.main',
    range_start: null,
    range_end: null,
    version: 'v1',
    refresh_key: 'every:1',
    file: null,
    warehouse_table: null,
    row_count: 0,
    bytes: 0,
    built_at: new Date(),
    build_ms: 1,
    last_error: null,
    error_at: null,
    ...fields,
  };
}

/** Asks for the deployment's pre-aggregations to be built now, as the admin; answers the accepted response. */
export async function requestBuild(account: TestAccount, deploymentId: number) {
  const build = await account.request({
    method: 'POST',
    url: `/api/v1/deployments/${deploymentId}/pre-aggregations/build`,
    as: account.admin,
    body: {},
  });
  if (build.status !== 200) throw new Error(`the build was refused: ${build.status} ${build.text}`);
  return build;
}
