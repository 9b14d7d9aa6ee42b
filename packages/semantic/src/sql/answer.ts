import type { MetaCube } from '../meta.js';
import type { Annotation } from '../planner/annotation.js';
import type { Query } from '../planner/query.js';
import { notSupported, SqlTranslationError } from './errors.js';
import { translateSql, type SqlTranslation } from './translate.js';
import { arrowTypeOf, pgTypeOf, type PgType } from './types.js';

/** What SQL names resolve against: the caller's `/v1/meta` (only what the caller's policies let it see). */
export interface SqlModel {
  cubes: readonly MetaCube[];
}

/** The data API's answer to one semantic query, as the caller's `load` gives it. */
export interface SqlLoadResult {
  data: ReadonlyArray<Readonly<Record<string, unknown>>>;
  annotation?: Annotation;
  lastRefreshTime?: string;
}

export interface SqlOptions {
  model: SqlModel;
  /** Values of `$1`, `$2`, ... (the extended protocol's Bind). */
  params?: readonly unknown[];
  /** Runs one semantic query under the caller's policies: the only way the SQL API reads data. */
  load: (query: Query) => Promise<SqlLoadResult>;
  signal?: AbortSignal;
}

/** A column of a SQL answer: its name, its PostgreSQL type, and Cube's Arrow name for `/cubesql`. */
export interface SqlColumn {
  name: string;
  type: PgType['name'];
  typeOid: number;
  columnType: string;
}

export interface SqlAnswer {
  columns: SqlColumn[];
  /** Values as the data API gives them (numbers as strings, times as ISO text without zone), null for NULL. */
  rows: AsyncIterable<unknown[]> | unknown[][];
  lastRefreshTime?: string;
}

export interface SqlDescription {
  columns: SqlColumn[];
  paramTypes: PgType[];
}

const columnOf = (name: string, type: PgType): SqlColumn => ({ name, type: type.name, typeOid: type.oid, columnType: arrowTypeOf(type) });

/** The translation, any failure of which is a SqlTranslationError (a parser quirk on odd input is still that input's error). */
function translated(sql: string, model: SqlModel): SqlTranslation {
  try {
    return translateSql(sql, model.cubes);
  } catch (error) {
    if (error instanceof SqlTranslationError) throw error;
    throw notSupported(`The SQL could not be translated: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * The columns and parameter types of `sql` without running it (the extended protocol's Describe).
 * Asynchronous because a post-processed statement's columns are typed by the engine that runs it.
 */
export async function describeSql(sql: string, options: { model: SqlModel }): Promise<SqlDescription> {
  const { columns } = translated(sql, options.model);
  return { columns: columns.map((c) => columnOf(c.name, pgTypeOf(c.member))), paramTypes: [] };
}

/** Answers one SELECT over the model's cubes and views through `load`. */
export async function answerSql(sql: string, options: SqlOptions): Promise<SqlAnswer> {
  const { query, columns } = translated(sql, options.model);
  options.signal?.throwIfAborted();
  const answer = await options.load(query);
  const rows = answer.data.map((row) => columns.map((c) => row[c.key] ?? null));
  return {
    columns: columns.map((c) => columnOf(c.name, pgTypeOf(c.member))),
    rows,
    ...(answer.lastRefreshTime !== undefined ? { lastRefreshTime: answer.lastRefreshTime } : {}),
  };
}
