import { answerSql, describeSql, SqlTranslationError, type MetaCube, type SqlColumn } from '@plinth/semantic';
import type { Query } from '@plinth/semantic';
import type { CatalogSession } from './catalog.js';
import { catalogDescribe, catalogRun } from './catalog-protocol.js';
import { SqlFailure } from './errors.js';
import { leadingWords, paramCount, stripComments } from './statements.js';
import { decodeParam, encodeValue } from './values.js';
import { dataRow, rowDescription, type WireField } from './wire.js';

/** What a statement's run needs of its connection: the caller's model, its catalog and its load. */
export interface Served {
  cubes: readonly MetaCube[];
  catalog: CatalogSession;
  load: (query: Query, signal: AbortSignal) => Promise<{ data: Array<Record<string, unknown>>; lastRefreshTime?: string }>;
  /** The most rows one load may return (the data API's limit): past it a statement is streamed, or refused by post-processing. */
  maxRows: number;
  /** One pushed-down query's rows from the warehouse in batches, under the caller's policies; settles once planned. */
  stream: (query: Query, signal: AbortSignal) => Promise<AsyncIterable<ReadonlyArray<Readonly<Record<string, unknown>>>>>;
}

/** Bind's parameters as sent: values (null for NULL), their format codes, and the result format codes. */
export interface Binding {
  values: (Buffer | null)[];
  paramFormats: number[];
  resultFormats: number[];
}

export const NO_BINDING: Binding = { values: [], paramFormats: [], resultFormats: [] };

/** A statement's answer: its RowDescription (null for none), its DataRows, and its CommandComplete tag once they are sent. */
export interface Outcome {
  description: Buffer | null;
  rows: AsyncIterator<Buffer> | Iterator<Buffer>;
  tag: (sent: number) => string;
}

/** Ends a stream: its iteration returns, and the abort releases a warehouse cursor it is still reading. */
export function endStream(outcome: Outcome | undefined, controller: AbortController): void {
  controller.abort();
  const ended = outcome?.rows.return?.();
  if (ended instanceof Promise) ended.catch(() => undefined);
}

/** A statement's shape without running it (Describe of a statement). */
export interface Shape {
  paramOids: number[];
  /** The RowDescription (formats text, as a statement's Describe has no formats yet), or null for NoData. */
  description: Buffer | null;
}

const SIZE: Record<string, number> = { int8: 8, float8: 8, bool: 1, timestamp: 8, int4: 4, numeric: -1, text: -1 };

const fieldsOf = (columns: readonly SqlColumn[]): WireField[] =>
  columns.map((c) => ({ name: c.name, typeOid: c.typeOid, typeSize: SIZE[c.type] ?? -1 }));

const formatOf = (formats: readonly number[], i: number) => (formats.length === 1 ? formats[0]! : (formats[i] ?? 0));

/**
 * Where a query goes: a statement that names no cube or view (only catalog relations and
 * functions) runs on the model's catalog, a real PostgreSQL; the rest is the model's, through the
 * translation and the data API. A statement the catalog cannot plan goes to the translation,
 * which names what it refuses.
 */
export async function routeOf(sql: string, served: Served): Promise<'catalog' | 'model'> {
  // The catalog's settings are every session's that shares it: a statement may not change them.
  if (/\bset_config\s*\(/i.test(stripComments(sql))) {
    throw new SqlFailure('0A000', 'set_config is not supported: use SET, which applies to this session');
  }
  const reads = await served.catalog.readsModel(stripComments(sql).trim().replace(/;\s*$/, ''));
  return reads === false ? 'catalog' : 'model';
}

/** The shape of a query statement (SELECT, WITH, VALUES, TABLE, SHOW). */
export async function describeQuery(sql: string, paramOids: readonly number[], served: Served): Promise<Shape> {
  if ((await routeOf(sql, served)) === 'catalog' || leadingWords(sql, 1)[0] === 'SHOW') {
    return catalogDescribe(served.catalog, sql, paramOids);
  }
  // Described without values: a parameter's type is the one its use gives it, text when it says nothing.
  const count = Math.max(paramCount(sql), paramOids.length);
  const described = await describeSql(sql, { model: { cubes: served.cubes } });
  const oids = Array.from({ length: count }, (_, i) => paramOids[i] || (described.paramTypes[i]?.oid ?? 25));
  return { paramOids: oids, description: rowDescription(fieldsOf(described.columns)) };
}

/** Runs a query statement with its binding. */
export async function runQuery(
  sql: string,
  paramOids: readonly number[],
  binding: Binding,
  served: Served,
  signal: AbortSignal,
): Promise<Outcome> {
  if (leadingWords(sql, 1)[0] === 'SHOW' || (await routeOf(sql, served)) === 'catalog') {
    return catalogRun(served.catalog, sql, paramOids, binding);
  }
  const params = binding.values.map((v, i) => decodeParam(v, formatOf(binding.paramFormats, i), paramOids[i] ?? 0));
  const wanted = paramCount(sql);
  if (wanted > params.length) {
    throw new SqlFailure('08P01', `bind message supplies ${params.length} parameters, but prepared statement requires ${wanted}`);
  }
  // Values go to the translation as parameters, never spliced into the SQL text.
  const answer = await answerSql(sql, {
    model: { cubes: served.cubes },
    params,
    load: (query) => served.load(query, signal),
    stream: (query) => served.stream(query, signal),
    maxRows: served.maxRows,
    signal,
  });
  const { columns } = answer;
  const formats = columns.map((_, i) => formatOf(binding.resultFormats, i));
  return {
    description: rowDescription(fieldsOf(columns), formats),
    rows: encodedRows(answer.rows, columns, formats),
    tag: (sent) => `SELECT ${sent}`,
  };
}

async function* encodedRows(rows: AsyncIterable<unknown[]> | unknown[][], columns: readonly SqlColumn[], formats: readonly number[]) {
  for await (const row of rows)
    yield dataRow(row.map((value: unknown, i: number) => encodeValue(value, columns[i]!.type, formats[i] ?? 0)));
}

/** The SQL text of `COPY (query) TO STDOUT [WITH (...)]`: its query and whether CSV was asked for. */
export function copyQueryOf(sql: string): { query: string; csv: boolean; header: boolean } {
  const text = stripComments(sql).trim().replace(/;\s*$/, '');
  const match = /^copy\s*\(([\s\S]*)\)\s*to\s+stdout\b\s*(?:with\s*)?(?:\(([^)]*)\))?\s*$/i.exec(text);
  if (!match) {
    throw new SqlTranslationError(
      'feature_not_supported',
      'COPY is supported only as COPY (query) TO STDOUT: the SQL API reads, it does not write',
    );
  }
  const options = (match[2] ?? '').toLowerCase();
  const unknown = options
    .split(',')
    .map((o) => o.trim())
    .filter((o) => o && !/^format\s+(csv|text)$/.test(o) && !/^header(\s+(true|on))?$/.test(o));
  if (unknown.length > 0) throw new SqlTranslationError('feature_not_supported', `COPY option ${unknown[0]} is not supported`);
  return { query: match[1]!, csv: /format\s+csv/.test(options), header: /header/.test(options) };
}
