import type { Warehouse } from '../drivers/warehouse.js';
import { sampleModelYaml } from './model.js';

export interface SampleOptions {
  /** Number of line items; customers, orders and products scale with it. */
  readonly lineItems?: number;
  /** PostgreSQL schema to create the tables in (created if missing); DuckDB uses its default schema. */
  readonly schema?: string;
}

export const DEFAULT_LINE_ITEMS = 1_000_000;

export interface SampleSizes {
  readonly customers: number;
  readonly products: number;
  readonly orders: number;
  readonly lineItems: number;
}

export function sampleSizes(lineItems = DEFAULT_LINE_ITEMS): SampleSizes {
  const n = Math.max(40, Math.floor(lineItems));
  return {
    customers: Math.max(10, Math.round(n / 40)),
    products: Math.max(10, Math.min(500, Math.round(n / 2000))),
    orders: Math.max(10, Math.round(n / 4)),
    lineItems: n,
  };
}

const CITIES: ReadonlyArray<[string, string]> = [
  ['New York', 'USA'],
  ['Chicago', 'USA'],
  ['London', 'UK'],
  ['Manchester', 'UK'],
  ['Berlin', 'Germany'],
  ['Paris', 'France'],
  ['Lyon', 'France'],
  ['Tokyo', 'Japan'],
];
const CATEGORIES = ['Books', 'Electronics', 'Garden', 'Kitchen', 'Sports', 'Toys'];

/** A deterministic hash in integer arithmetic that DuckDB and PostgreSQL compute identically. */
const hash = (x: string, salt: number): string => `((${x} * 2654435761 + ${salt * 40503}) % 2147483647)`;
const pickFrom = (list: readonly string[], index: string): string =>
  `CASE ${index} ${list.map((v, i) => `WHEN ${i} THEN '${v.replace(/'/g, "''")}'`).join(' ')} END`;
const seconds = (x: string): string => `(${x} * INTERVAL '1 second')`;

/** Statements creating the four tables; the same SQL text for both warehouses except the row source. */
export function sampleStatements(dialect: string, options: SampleOptions = {}): string[] {
  const s = sampleSizes(options.lineItems);
  const prefix = options.schema ? `"${options.schema.replace(/"/g, '""')}".` : '';
  const rows = (n: number): string => (dialect === 'postgres' ? `generate_series(1, ${n}) AS g(x)` : `range(1, ${n + 1}) AS g(x)`);
  const cityIndex = `(${hash('x', 1)} % ${CITIES.length})`;
  const stmts = [
    `CREATE TABLE ${prefix}customers AS SELECT
      CAST(x AS INTEGER) AS id,
      'Customer ' || x AS name,
      'customer' || x || '@example.com' AS email,
      CASE WHEN x % 17 = 0 THEN NULL ELSE ${pickFrom(
        CITIES.map((c) => c[0]),
        cityIndex,
      )} END AS city,
      ${pickFrom(
        CITIES.map((c) => c[1]),
        cityIndex,
      )} AS country,
      ${pickFrom(['consumer', 'corporate', 'home_office'], `(${hash('x', 2)} % 3)`)} AS segment,
      TIMESTAMP '2022-01-01 00:00:00' + ${seconds(`(${hash('x', 3)} % 31536000)`)} AS created_at
    FROM ${rows(s.customers)}`,
    `CREATE TABLE ${prefix}products AS SELECT
      CAST(x AS INTEGER) AS id,
      'Product ' || x AS name,
      ${pickFrom(CATEGORIES, `(${hash('x', 4)} % ${CATEGORIES.length})`)} AS category,
      CAST(round((${hash('x', 5)} % 20000 + 100) / 100.0, 2) AS DECIMAL(10,2)) AS price
    FROM ${rows(s.products)}`,
    `CREATE TABLE ${prefix}orders AS SELECT
      CAST(x AS INTEGER) AS id,
      CAST(1 + ${hash('x', 6)} % ${s.customers} AS INTEGER) AS customer_id,
      ${pickFrom(['completed', 'completed', 'completed', 'completed', 'completed', 'completed', 'processing', 'shipped', 'cancelled', 'returned'], `(${hash('x', 7)} % 10)`)} AS status,
      TIMESTAMP '2023-01-01 00:00:00' + ${seconds(`(${hash('x', 8)} % 63072000)`)} AS created_at
    FROM ${rows(s.orders)}`,
    `CREATE TABLE ${prefix}line_items AS SELECT
      CAST(x AS INTEGER) AS id,
      CAST(1 + ${hash('x', 9)} % ${s.orders} AS INTEGER) AS order_id,
      CAST(1 + ${hash('x', 10)} % ${s.products} AS INTEGER) AS product_id,
      CAST(1 + ${hash('x', 11)} % 5 AS INTEGER) AS quantity,
      CAST(round((${hash('x', 12)} % 10000 + 100) / 100.0, 2) AS DECIMAL(10,2)) AS price
    FROM ${rows(s.lineItems)}`,
  ];
  if (dialect === 'postgres') {
    for (const t of ['customers', 'products', 'orders', 'line_items']) stmts.push(`ALTER TABLE ${prefix}${t} ADD PRIMARY KEY (id)`);
    stmts.push(`CREATE INDEX ON ${prefix}orders (customer_id)`, `CREATE INDEX ON ${prefix}line_items (order_id)`);
    for (const t of ['customers', 'products', 'orders', 'line_items']) stmts.push(`ANALYZE ${prefix}${t}`);
  }
  return stmts;
}

/** Writes the sample tables (replacing earlier ones) and returns the matching model files. */
export async function writeSample(warehouse: Warehouse, options: SampleOptions = {}): Promise<Record<string, string>> {
  const dialect = warehouse.dialect.name;
  const prefix = options.schema ? `"${options.schema.replace(/"/g, '""')}".` : '';
  if (options.schema) await warehouse.query(`CREATE SCHEMA IF NOT EXISTS "${options.schema.replace(/"/g, '""')}"`, []);
  for (const t of ['line_items', 'orders', 'products', 'customers']) await warehouse.query(`DROP TABLE IF EXISTS ${prefix}${t}`, []);
  for (const stmt of sampleStatements(dialect, options)) await warehouse.query(stmt, [], { timeoutMs: 600_000 });
  return sampleModelFiles(options.schema);
}

export function sampleModelFiles(schema?: string): Record<string, string> {
  return { 'model/sample.yml': sampleModelYaml(schema) };
}
