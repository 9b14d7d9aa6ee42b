import type { MetaCube } from '../meta.js';
import type { Annotation } from '../planner/annotation.js';
import { MAX_LIMIT, type Query } from '../planner/query.js';
import { runEngine, type EngineTable } from './engine.js';
import { notSupported, SqlTranslationError } from './errors.js';
import { Params } from './literals.js';
import { deparse, parseSelect } from './pg-ast.js';
import { planStatement, pushedColumn, type SqlPlan } from './rewrite.js';
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
  /** Values of `$1`, `$2`, ... (the extended protocol's Bind); text, numbers, booleans, Dates or null. */
  params?: readonly unknown[];
  /** Runs one semantic query under the caller's policies: the only way the SQL API reads data. */
  load: (query: Query) => Promise<SqlLoadResult>;
  /**
   * Streams one semantic query's rows under the caller's policies, in batches: given, a pushed-down
   * statement's rows come from it as they are read, with the statement's LIMIT as the only limit.
   * The promise settles once the query is planned, before any row is read. Post-processed statements still read their pushed-down results whole through `load`.
   */
  stream?: (query: Query) => Promise<AsyncIterable<ReadonlyArray<Readonly<Record<string, unknown>>>>>;
  signal?: AbortSignal;
  /**
   * The most rows post-processing reads from one semantic query (the data API's row limit, 50,000
   * by default): a result reaching it is refused rather than post-processed incomplete.
   */
  maxRows?: number;
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
  /** Values as the data API gives them (numbers as text, times as ISO text without zone, booleans), null for NULL. */
  rows: AsyncIterable<unknown[]> | unknown[][];
  /** The oldest refresh time of the results the answer read, when the loads give one. */
  lastRefreshTime?: string;
}

export interface SqlDescription {
  columns: SqlColumn[];
  /** The type of each `$n`, from where the statement uses it (text when its use says nothing). */
  paramTypes: PgType[];
}

const columnOf = (name: string, type: PgType): SqlColumn => ({ name, type: type.name, typeOid: type.oid, columnType: arrowTypeOf(type) });

/** The plan of `sql`, any failure of which is a SqlTranslationError (a parser quirk on odd input is still that input's error). */
async function planned(sql: string, model: SqlModel, params: Params): Promise<SqlPlan> {
  try {
    return planStatement(await parseSelect(sql), model.cubes, params);
  } catch (error) {
    if (error instanceof SqlTranslationError) throw error;
    throw notSupported(`The SQL could not be translated: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function tablesOf(plan: Extract<SqlPlan, { kind: 'engine' }>, results: readonly SqlLoadResult[]): EngineTable[] {
  return plan.pushed.map((pushed, i) => ({
    name: pushed.table,
    columns: pushed.items.map((item, j) => ({ name: pushedColumn(j), type: pgTypeOf(item.member) })),
    rows: (results[i]?.data ?? []).map((row) => pushed.items.map((item) => row[item.key] ?? null)),
  }));
}

/**
 * The columns and parameter types of `sql` without running it (the extended protocol's Describe).
 * Asynchronous because a post-processed statement's columns are typed by the engine that runs it.
 */
export async function describeSql(sql: string, options: { model: SqlModel }): Promise<SqlDescription> {
  const params = new Params();
  const plan = await planned(sql, options.model, params);
  if (plan.kind === 'pushdown') {
    return { columns: plan.columns.map((c) => columnOf(c.name, pgTypeOf(c.item.member))), paramTypes: params.list() };
  }
  const described = await runEngine(await deparse(plan.statement), tablesOf(plan, []), { describe: true });
  return { columns: described.columns.map((c, i) => columnOf(plan.names?.[i] ?? c.name, c.type)), paramTypes: params.list() };
}

/**
 * Answers one SELECT over the model's cubes and views. SQL one semantic query expresses is pushed
 * down whole through `load`; otherwise each SELECT over cubes is loaded, and the rest of the
 * statement runs over those results in the in-process post-processing engine.
 */
export async function answerSql(sql: string, options: SqlOptions): Promise<SqlAnswer> {
  const plan = await planned(sql, options.model, new Params(options.params ?? []));
  options.signal?.throwIfAborted();
  if (plan.kind === 'pushdown') {
    // Through load while the answer fits in one (the result cache and the executor's queue serve it,
    // as they serve /load); streamed only when it may not: no LIMIT, or one past the row limit, and
    // the first maxRows rows came back full. That re-reads a large result once, and a dashboard's
    // LIMIT-less aggregate is answered from the cache instead of a warehouse cursor every time.
    const maxRows = options.maxRows ?? MAX_LIMIT;
    const fits = plan.query.limit !== undefined && plan.query.limit <= maxRows;
    const answer = await options.load(fits || !options.stream ? plan.query : { ...plan.query, limit: maxRows });
    if (options.stream && !fits && answer.data.length >= maxRows) {
      const { columns } = plan;
      const batches = await options.stream(plan.query);
      return {
        columns: columns.map((c) => columnOf(c.name, pgTypeOf(c.item.member))),
        rows: (async function* () {
          for await (const batch of batches) for (const row of batch) yield columns.map((c) => row[c.item.key] ?? null);
        })(),
      };
    }
    return {
      columns: plan.columns.map((c) => columnOf(c.name, pgTypeOf(c.item.member))),
      rows: answer.data.map((row) => plan.columns.map((c) => row[c.item.key] ?? null)),
      ...(answer.lastRefreshTime !== undefined ? { lastRefreshTime: answer.lastRefreshTime } : {}),
    };
  }
  const text = await deparse(plan.statement);
  const maxRows = options.maxRows ?? MAX_LIMIT;
  const results: SqlLoadResult[] = [];
  for (const pushed of plan.pushed) {
    options.signal?.throwIfAborted();
    const limited = pushed.query.limit !== undefined;
    const result = await options.load(limited ? pushed.query : { ...pushed.query, limit: maxRows });
    if (!limited && result.data.length >= maxRows) {
      throw new SqlTranslationError(
        'program_limit_exceeded',
        `A query over ${pushed.items[0]?.member.name.split('.')[0] ?? 'a cube'} that post-processing reads reached the row limit of ${maxRows}: narrow it with WHERE, or group by fewer dimensions`,
      );
    }
    results.push(result);
  }
  const result = await runEngine(text, tablesOf(plan, results), { signal: options.signal });
  const refreshed = results.flatMap((r) => (r.lastRefreshTime !== undefined ? [r.lastRefreshTime] : [])).sort()[0];
  return {
    columns: result.columns.map((c, i) => columnOf(plan.names?.[i] ?? c.name, c.type)),
    rows: result.rows,
    ...(refreshed !== undefined ? { lastRefreshTime: refreshed } : {}),
  };
}
