import { PRE_AGGREGATIONS_SCHEMA, type RollupColumn, type RollupDefinition, type SqlPlan, type Warehouse } from '@plinth/semantic';

/**
 * Rollups kept in the source warehouse (`external: false`): each partition version is a table of
 * its own in one schema, `prod_pre_aggregations` as in Cube, named `<partition>_<version>`. A new
 * version is a new table, so readers switch when the manifest names it, never meeting a table
 * being rebuilt; the replaced one is dropped after the grace period.
 *
 * Names reach SQL only through `quotedTable`, which accepts nothing but lower-case letters, digits
 * and underscores: cube and pre-aggregation names are the tenant's text, and a manifest row is
 * checked again before it is read, so neither can smuggle SQL into a statement.
 */

/** PostgreSQL keeps identifiers of at most 63 bytes (it would cut a longer one silently); DuckDB takes the same. */
const MAX_IDENTIFIER = 63;
const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

/** The table of one partition version, as the manifest records it: `prod_pre_aggregations.<partition>_<version>`. */
export function warehouseTable(partition: string, version: string): string {
  if (!/^[0-9a-f]+$/.test(version)) throw new Error(`Internal error: version ${version} is not hexadecimal`);
  let base = partition.toLowerCase().replace(/[^a-z0-9_]/g, '_');
  if (!/^[a-z_]/.test(base)) base = `_${base}`;
  const suffix = `_${version}`;
  // A long partition name is cut: the random version keeps two tables apart.
  return `${PRE_AGGREGATIONS_SCHEMA}.${base.slice(0, MAX_IDENTIFIER - suffix.length)}${suffix}`;
}

/** A manifest's `<schema>.<table>` quoted for SQL; anything but two safe identifiers is refused. */
export function quotedTable(stored: string): string {
  const parts = stored.split('.');
  if (parts.length !== 2 || !parts.every((part) => IDENTIFIER.test(part) && part.length <= MAX_IDENTIFIER)) {
    throw new Error(`Internal error: ${JSON.stringify(stored)} is not a pre-aggregation table name`);
  }
  return parts.map((part) => `"${part}"`).join('.');
}

/**
 * Why the source cannot keep this rollup, or undefined. A `count_distinct_approx` measure is stored
 * as lists of values that only DuckDB merges (PostgreSQL has no mergeable sketch), so a rollup of
 * one kept in PostgreSQL could answer no query with it.
 */
export function inWarehouseProblem(definition: RollupDefinition, warehouse: Warehouse): string | undefined {
  if (warehouse.dialect.name === 'duckdb') return undefined;
  const approx = definition.columns.find((column) => column.part === 'distinct_values');
  if (!approx) return undefined;
  return (
    `Pre-aggregation ${definition.id}: external: false keeps it in the ${warehouse.dialect.name} warehouse, which has no mergeable ` +
    `sketch for the count_distinct_approx measure ${approx.member}; remove external: false to keep it in Plinth's rollup store, or leave the measure out`
  );
}

/** Fails, naming the rollup, when the source warehouse takes no writes (a PostgreSQL standby or a read-only role). */
export async function assertWritable(definition: RollupDefinition, warehouse: Warehouse): Promise<void> {
  if (warehouse.dialect.name !== 'postgres') return;
  const { rows } = await warehouse.query('SELECT current_setting($1) AS "readOnly"', ['transaction_read_only']);
  if (rows[0]?.['readOnly'] === 'on') {
    throw new Error(
      `Pre-aggregation ${definition.id}: external: false builds it as a table in the source warehouse, which is read-only ` +
        `(transaction_read_only is on); remove external: false to keep it in Plinth's rollup store`,
    );
  }
}

/**
 * Builds one partition version as a table of the source warehouse from its build query. The table
 * is complete when the statement returns (CREATE TABLE AS is one statement): nobody reads it before
 * the manifest names it anyway.
 */
export async function createTable(
  warehouse: Warehouse,
  table: string,
  plan: SqlPlan,
  timeoutMs: number,
): Promise<{ rows: number; bytes: number | null }> {
  const quoted = quotedTable(table);
  await createSchema(warehouse);
  await warehouse.query(`CREATE TABLE ${quoted} AS ${plan.sql}`, plan.params, { timeoutMs });
  const { rows } = await warehouse.query(`SELECT count(*) AS "n" FROM ${quoted}`, []);
  const count = Number(rows[0]?.['n'] ?? 0);
  if (warehouse.dialect.name !== 'postgres') return { rows: count, bytes: null };
  const size = await warehouse.query('SELECT pg_total_relation_size(CAST($1 AS regclass)) AS "bytes"', [quoted]);
  return { rows: count, bytes: Number(size.rows[0]?.['bytes'] ?? 0) };
}

async function createSchema(warehouse: Warehouse): Promise<void> {
  try {
    await warehouse.query(`CREATE SCHEMA IF NOT EXISTS "${PRE_AGGREGATIONS_SCHEMA}"`, []);
  } catch (error) {
    // Two processes creating it at once: PostgreSQL lets one of them fail on the catalog's unique key.
    if ((error as { code?: unknown }).code !== '23505') throw error;
  }
}

/** Drops replaced versions' tables; one already gone is fine. */
export async function dropTables(warehouse: Warehouse, tables: readonly string[]): Promise<void> {
  for (const table of tables) await warehouse.query(`DROP TABLE IF EXISTS ${quotedTable(table)}`, []);
}

/** The source's FROM expression over a rollup's partition tables, their columns in one order. */
export function warehouseFrom(tables: readonly string[], columns: readonly RollupColumn[]): string {
  if (tables.length === 1) return quotedTable(tables[0]!);
  const list = columns.length ? columns.map((column) => `"${column.name.replace(/"/g, '""')}"`).join(', ') : '*';
  return `(${tables.map((table) => `SELECT ${list} FROM ${quotedTable(table)}`).join('\nUNION ALL\n')})`;
}
