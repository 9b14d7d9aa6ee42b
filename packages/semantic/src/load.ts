import { QueryError } from './errors.js';
import type { Caller, DataModel } from './model.js';
import { fanOut, pivotQueryOf, type FannedOut, type PivotQuery, type QueryType } from './planner/fan-out.js';
import { buildLogicalQuery } from './planner/logical.js';
import { planOnce } from './planner/plan-cache.js';
import { EVERYONE } from './planner/policy.js';
import type { Annotation } from './planner/annotation.js';
import { planLogicalOrRollup, planQuery, type QueryPlan, type ResultColumn } from './planner/plan.js';
import type { AvailableRollup, UsedPreAggregation } from './rollups/types.js';
import type { NormalizedQuery } from './planner/query.js';
import type { Dialect } from './dialects/dialect.js';
import type { QueryOptions, Warehouse } from './drivers/warehouse.js';

export interface LoadOptions extends QueryOptions {
  readonly warehouse: Warehouse;
  readonly caller?: Caller;
  readonly now?: Date;
  /** Built rollups a query may be answered from; those not kept in the warehouse need `rollupStore`. */
  readonly rollups?: readonly AvailableRollup[];
  /** The DuckDB that reads the rollups' `from` expressions. */
  readonly rollupStore?: Warehouse;
}

/** The rollups a load may read: without a store, only those kept in the warehouse. */
export function offeredRollups(options: LoadOptions): readonly AvailableRollup[] {
  const rollups = options.rollups ?? [];
  return options.rollupStore ? rollups : rollups.filter((rollup) => rollup.inWarehouse);
}

/** One object per row, keyed by member name: Cube's default response format. */
export type DataRows = Array<Record<string, unknown>>;

/** `responseFormat: "compact"`: the member names once, then each row as values in that order. */
export interface CompactData {
  members: string[];
  dataset: unknown[][];
}

/** The body of Cube's `/cubejs-api/v1/load` answer for one query. */
export interface LoadResponse<Data extends DataRows | CompactData = DataRows | CompactData> {
  query: NormalizedQuery;
  data: Data;
  annotation: Annotation;
  total?: number;
  /** Set when a rollup answered, keyed as Cube keys it. */
  usedPreAggregations?: Readonly<Record<string, UsedPreAggregation>>;
}

/**
 * The `data` a query answers: rows, unless it asks for `responseFormat: "compact"`; a query whose type
 * says nothing (a request body) may answer either.
 */
export type LoadData<Q> = unknown extends Q
  ? DataRows | CompactData
  : Q extends { responseFormat?: unknown }
    ? [Q['responseFormat']] extends ['compact']
      ? CompactData
      : 'compact' extends Q['responseFormat']
        ? DataRows | CompactData
        : DataRows
    : DataRows;

/** Plans the query for the caller, runs it, and shapes rows the way Cube's data API does. */
export async function load<const Q>(model: DataModel, query: Q, options: LoadOptions): Promise<LoadResponse<LoadData<Q>>> {
  const plan = planQuery(model, query, {
    dialect: options.warehouse.dialect,
    caller: options.caller,
    now: options.now,
    rollups: offeredRollups(options),
  });
  // runPlan shapes `data` from the normalized query's responseFormat, which is what LoadData reads from the type.
  return (await runPlan(plan, options)) as LoadResponse<LoadData<Q>>;
}

/** Keys a multi-query answer adds to each row (`compareDateRange`, `time.<granularity>`). */
export type RowDecoration = (row: Readonly<Record<string, unknown>>) => Record<string, unknown>;

/** Runs a plan (and its total query, if any) and shapes the answer. */
export async function runPlan(plan: QueryPlan, options: LoadOptions, decorate?: RowDecoration): Promise<LoadResponse> {
  const warehouse = plan.rollup && !plan.rollup.inWarehouse ? (options.rollupStore ?? options.warehouse) : options.warehouse;
  const run = { timeoutMs: options.timeoutMs, signal: options.signal };
  const [result, total] = await Promise.all([
    warehouse.query(plan.sql, plan.params, run),
    plan.total ? warehouse.query(plan.total.sql, plan.total.params, run) : undefined,
  ]);
  const shaped = result.rows.map((row) => shapeRow(row, plan.columns));
  const rows = decorate ? shaped.map((row) => ({ ...row, ...decorate(row) })) : shaped;
  const response: LoadResponse = {
    query: plan.query,
    data: plan.query.responseFormat === 'compact' ? compact(rows) : rows,
    annotation: plan.annotation,
  };
  if (total) response.total = Number(total.rows[0]?.['total'] ?? 0);
  if (plan.rollup) response.usedPreAggregations = plan.usedPreAggregations;
  return response;
}

/** As Cube: members are the keys of the first row, so an empty result has no members. */
export function compact(rows: DataRows): CompactData {
  const members = Object.keys(rows[0] ?? {});
  return { members, dataset: rows.map((row) => members.map((member) => row[member])) };
}

export function shapeRow(row: Readonly<Record<string, unknown>>, columns: readonly ResultColumn[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const column of columns) {
    const value = formatValue(row[column.alias], column.type);
    for (const key of column.keys) out[key] = value;
  }
  return out;
}

const TIMESTAMP = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}:\d{2}:\d{2})(?:\.(\d+))?)?/;
/**
 * A whole value that is a date or a timestamp, as both drivers return them; a TIMESTAMPTZ comes with
 * the session's zone, which both drivers set to UTC (`+00`).
 */
const TIMESTAMP_VALUE = /^\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[+-]00(?::?00)?|Z)?)?$/;

/**
 * Numbers as strings (Cube's convention, safe for big integers), times as local ISO without zone.
 * A `min`/`max` measure over a time column is annotated as a number, as in Cube, but its timestamps
 * are formatted like any time, as Cube's drivers do.
 */
export function formatValue(value: unknown, type: string): unknown {
  if (value === null || value === undefined) return null;
  if (type === 'time') return formatTime(value);
  if (type === 'number') {
    if (typeof value === 'string' && TIMESTAMP_VALUE.test(value)) return formatTime(value);
    return typeof value === 'string' ? value : String(value);
  }
  return value;
}

function formatTime(value: unknown): string {
  const text = value instanceof Date ? value.toISOString() : String(value);
  const match = TIMESTAMP.exec(text);
  if (!match) return text;
  return `${match[1]}T${match[2] ?? '00:00:00'}.${(match[3] ?? '').padEnd(3, '0').slice(0, 3)}`;
}

/** Cube's multi-result answer, for compareDateRange, blending, or any query sent with `queryType: "multi"`. */
export interface MultiLoadResponse {
  queryType: QueryType;
  results: LoadResponse[];
  pivotQuery: PivotQuery;
  slowQuery: boolean;
}

export interface LoadRequestOptions extends LoadOptions {
  /** `multi` is what @cubejs-client/core sends; without it only a regular query can be answered, as in Cube. */
  readonly queryType?: 'multi';
}

/**
 * The `/cubejs-api/v1/load` entry: a query or an array of queries (data blending), answered in the single
 * shape `{query, data, annotation}` or, when the client asks for `queryType: "multi"`, in the multi shape
 * `{queryType, results, pivotQuery, slowQuery}`. A compareDateRange query runs once per range.
 */
export async function loadRequest(
  model: DataModel,
  request: unknown,
  options: LoadRequestOptions,
): Promise<LoadResponse | MultiLoadResponse> {
  const now = options.now ?? new Date();
  const fannedOut = fanOut(request, now);
  if (fannedOut.queryType !== 'regularQuery' && options.queryType !== 'multi') {
    throw new QueryError(`'${fannedOut.queryType}' query type is not supported by the client. Please update the client.`);
  }
  const plans = planFannedOut(model, fannedOut, {
    dialect: options.warehouse.dialect,
    caller: options.caller,
    now,
    rollups: offeredRollups(options),
  });
  const results = await Promise.all(plans.map((plan, index) => runPlan(plan, options, rowDecoration(fannedOut, fannedOut.queries[index]))));
  if (options.queryType !== 'multi') return results[0] as LoadResponse;
  const pivotQuery = pivotQueryOf(
    fannedOut.queryType,
    results.map((result) => result.query),
  );
  return { queryType: fannedOut.queryType, results, pivotQuery, slowQuery: false };
}

/**
 * The plans of a request's queries, as a load runs them: the data API's `/v1/sql` and `/v1/dry-run`
 * show these, so they take every query shape load takes (blending, compareDateRange).
 */
export function planFannedOut(
  model: DataModel,
  fannedOut: FannedOut,
  options: { readonly dialect: Dialect; readonly caller?: Caller; readonly now: Date; readonly rollups?: readonly AvailableRollup[] },
): QueryPlan[] {
  const { dialect, now } = options;
  const caller = options.caller ?? EVERYONE;
  const rollups = options.rollups ?? [];
  return fannedOut.queries.map((query) =>
    planOnce(
      model,
      dialect,
      caller,
      query,
      now,
      (clock) => planLogicalOrRollup(buildLogicalQuery(model, query, { caller, now: clock }), dialect, rollups),
      rollups,
    ),
  );
}

/** As Cube: compared rows name their range (`from - to`), blended rows carry their time value under `time.<granularity>`. */
function rowDecoration(fannedOut: FannedOut, query: NormalizedQuery | undefined): RowDecoration | undefined {
  if (!query) return undefined;
  if (fannedOut.queryType === 'compareDateRangeQuery') {
    const range = query.timeDimensions[fannedOut.comparedIndex ?? 0]?.dateRange;
    const label = Array.isArray(range) ? range.join(' - ') : String(range);
    return () => ({ compareDateRange: label });
  }
  if (fannedOut.queryType === 'blendingQuery') {
    const [first] = query.timeDimensions;
    if (!first?.granularity) return undefined;
    const key = `${first.dimension}.${first.granularity}`;
    return (row) => ({ [`time.${first.granularity}`]: row[key] });
  }
  return undefined;
}
