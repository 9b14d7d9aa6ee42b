import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { QueryTimeoutError } from '../errors.js';
import { SqlTranslationError, type SqlErrorCondition } from './errors.js';
import { PG_TYPES, type PgType } from './types.js';

/** A pushed-down result as a table of the engine: its column types and rows. */
export interface EngineTable {
  name: string;
  columns: Array<{ name: string; type: PgType }>;
  rows: ReadonlyArray<readonly unknown[]>;
}

export interface EngineResult {
  columns: Array<{ name: string; type: PgType }>;
  rows: unknown[][];
}

/**
 * The engine reads nothing but the tables it is given: no files, no network, no extensions. Its
 * sessions run in UTC like the warehouses', and DuckDB 1.5's common-subplan optimizer stays off as
 * in the DuckDB driver (it merges subplans that differ in the columns they read).
 */
const CONFIG = {
  enable_external_access: 'false',
  autoinstall_known_extensions: 'false',
  autoload_known_extensions: 'false',
  disabled_optimizers: 'common_subplan',
};

let engine: Promise<DuckDBInstance> | undefined;
function instance(): Promise<DuckDBInstance> {
  return (engine ??= (async () => {
    const { DuckDBInstance } = await import('@duckdb/node-api');
    const created = await DuckDBInstance.create(':memory:', CONFIG);
    const connection = await created.connect();
    try {
      await connection.run("SET GLOBAL TimeZone = 'UTC'");
      await connection.run('SET GLOBAL lock_configuration = true');
    } finally {
      connection.closeSync();
    }
    return created;
  })());
}

const DUCKDB_TYPES: Record<PgType['name'], string> = {
  int8: 'BIGINT',
  int4: 'INTEGER',
  float8: 'DOUBLE',
  numeric: 'DOUBLE',
  text: 'VARCHAR',
  timestamp: 'TIMESTAMP',
  timestamptz: 'TIMESTAMPTZ',
  date: 'DATE',
  bool: 'BOOLEAN',
};

/** The PostgreSQL type of a DuckDB result column. */
function pgTypeOfDuckDB(type: string): PgType {
  if (/^(BIGINT|HUGEINT|UBIGINT|UINTEGER|UHUGEINT)$/.test(type)) return PG_TYPES.int8;
  if (/^(INTEGER|SMALLINT|TINYINT|USMALLINT|UTINYINT)$/.test(type)) return PG_TYPES.int4;
  if (/^(DOUBLE|FLOAT)$/.test(type)) return PG_TYPES.float8;
  if (type.startsWith('DECIMAL')) return PG_TYPES.numeric;
  if (type === 'BOOLEAN') return PG_TYPES.bool;
  if (type === 'DATE') return PG_TYPES.date;
  if (type === 'TIMESTAMP WITH TIME ZONE') return PG_TYPES.timestamptz;
  if (type.startsWith('TIMESTAMP')) return PG_TYPES.timestamp;
  return PG_TYPES.text;
}

const TIMESTAMP = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(?:\.(\d+))?/;

/** A value as the data API gives one: numbers as text, times as local ISO with milliseconds. */
function formatValue(value: unknown, type: PgType): unknown {
  if (value === null || value === undefined) return null;
  switch (type.name) {
    case 'bool':
      return value;
    case 'timestamp':
    case 'timestamptz': {
      const match = TIMESTAMP.exec(String(value));
      return match ? `${match[1]}T${match[2]}.${(match[3] ?? '').padEnd(3, '0').slice(0, 3)}` : String(value);
    }
    default:
      return typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Loads a pushed-down result as text, then types it with casts, which read Cube's value formats. */
async function loadTable(connection: DuckDBConnection, table: EngineTable): Promise<void> {
  const raw = `${table.name}_raw`;
  const columns = table.columns.map((c) => `${quote(c.name)} VARCHAR`).join(', ');
  await connection.run(`CREATE TEMP TABLE ${quote(raw)} (${columns})`);
  if (table.rows.length > 0) {
    const appender = await connection.createAppender(raw, 'main', 'temp');
    for (const row of table.rows) {
      row.forEach((value) => (value === null || value === undefined ? appender.appendNull() : appender.appendVarchar(String(value))));
      appender.endRow();
    }
    appender.closeSync();
  }
  const typed = table.columns.map((c) => `CAST(${quote(c.name)} AS ${DUCKDB_TYPES[c.type.name]}) AS ${quote(c.name)}`).join(', ');
  await connection.run(`CREATE TEMP VIEW ${quote(table.name)} AS SELECT ${typed} FROM ${quote(raw)}`);
}

/** The condition of an engine error, read from DuckDB's message; anything else is a construct it does not support. */
const ENGINE_CONDITIONS: Array<[RegExp, SqlErrorCondition]> = [
  [/Referenced column .* not found|column .* does not exist/i, 'undefined_column'],
  [/Table with name .* does not exist/i, 'undefined_table'],
  [/(Scalar|Aggregate|Table) Function with name .* does not exist|No function matches/i, 'undefined_function'],
  [/Parser Error/i, 'syntax_error'],
  [/must appear in the GROUP BY clause/i, 'grouping_error'],
  [/Conversion Error|Could not convert/i, 'datatype_mismatch'],
];

/** DuckDB's message, as the caller's error: the SQL was valid PostgreSQL but post-processing refused it. */
function engineError(error: unknown): SqlTranslationError {
  const message = (error instanceof Error ? error.message : String(error)).replace(/\n+/g, ' ').trim();
  const condition = ENGINE_CONDITIONS.find(([pattern]) => pattern.test(message))?.[1] ?? 'feature_not_supported';
  return new SqlTranslationError(condition, `Post-processing failed: ${message}`);
}

/**
 * Runs post-processing SQL over pushed-down results in an in-process DuckDB, on a connection of its
 * own whose temporary tables go with it. `describe` only types the result (tables given empty).
 */
export async function runEngine(
  sql: string,
  tables: readonly EngineTable[],
  options: { signal?: AbortSignal; describe?: boolean } = {},
): Promise<EngineResult> {
  const connection = await (await instance()).connect();
  const interrupt = () => connection.interrupt();
  options.signal?.addEventListener('abort', interrupt, { once: true });
  try {
    for (const table of tables) await loadTable(connection, table);
    if (options.describe) {
      const prepared = await connection.prepare(sql).catch((error: unknown) => Promise.reject(engineError(error)));
      const columns = Array.from({ length: prepared.columnCount }, (_, i) => ({
        name: prepared.columnName(i),
        type: pgTypeOfDuckDB(prepared.columnType(i).toString()),
      }));
      return { columns, rows: [] };
    }
    const reader = await connection.runAndReadAll(sql).catch((error: unknown) => {
      if (options.signal?.aborted) return Promise.reject(new QueryTimeoutError('Query was cancelled'));
      return Promise.reject(engineError(error));
    });
    const columns = reader.columnNames().map((name, i) => ({ name, type: pgTypeOfDuckDB(reader.columnTypes()[i]!.toString()) }));
    const rows = (reader.getRowsJson() as unknown[][]).map((row) => row.map((value, i) => formatValue(value, columns[i]!.type)));
    return { columns, rows };
  } finally {
    options.signal?.removeEventListener('abort', interrupt);
    connection.closeSync();
  }
}
