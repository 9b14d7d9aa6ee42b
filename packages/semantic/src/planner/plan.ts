import type { Dialect } from '../dialects/dialect.js';
import type { Caller, DataModel } from '../model.js';
import { tableNameOf } from '../rollups/definitions.js';
import { findRollup, type RollupMatch } from '../rollups/match.js';
import { rollupSql } from '../rollups/render.js';
import type { AvailableRollup, RollupUse, UsedPreAggregation } from '../rollups/types.js';
import type { Annotation } from './annotation.js';
import { pushdownFilters } from './context-sql.js';
import { buildLogicalQuery, type LogicalQuery } from './logical.js';
import { planOnce } from './plan-cache.js';
import { EVERYONE } from './policy.js';
import { normalizeQuery, type NormalizedQuery, type Query } from './query.js';
import { Params, Renderer } from './render.js';
import { renderQuery } from './render-query.js';
import { describeResult, type ResultColumn } from './result-shape.js';

export type { ResultColumn } from './result-shape.js';

export interface PlanOptions {
  readonly dialect: Dialect;
  readonly caller?: Caller;
  /** The instant relative date ranges are computed from; defaults to now. */
  readonly now?: Date;
  /** `false` plans afresh and keeps nothing, e.g. to time the planner itself. */
  readonly cache?: boolean;
  /**
   * Rollups the server has built: a query one of them answers exactly is planned as DuckDB SQL over
   * its rows instead of the warehouse's tables.
   */
  readonly rollups?: readonly AvailableRollup[];
}

export interface QueryPlan {
  readonly sql: string;
  readonly params: readonly unknown[];
  /** `SELECT count(*)` over the same rows without limit and offset, when the query asked for `total`. */
  readonly total?: { readonly sql: string; readonly params: readonly unknown[] };
  readonly annotation: Annotation;
  readonly columns: readonly ResultColumn[];
  readonly query: NormalizedQuery;
  /** The cubes whose rows the warehouse plan reads: their refresh keys bound how long its answer may be reused. */
  readonly cubes: readonly string[];
  /** Set when a rollup answers: the SQL is DuckDB SQL over the rollup's rows. */
  readonly rollup?: RollupUse;
  /** Cube's `usedPreAggregations`, keyed by the rollup's table name; empty when the warehouse answers. */
  readonly usedPreAggregations: Readonly<Record<string, UsedPreAggregation>>;
}

/**
 * Cube query in, SQL and bound parameters out. Throws QueryError for anything the caller got wrong.
 * The same query from the same caller is planned once per model (plan-cache.ts); the plan is frozen.
 */
export function planQuery(model: DataModel, input: Query | unknown, options: PlanOptions): QueryPlan {
  const caller = options.caller ?? EVERYONE;
  const rollups = options.rollups ?? [];
  const plan = (now: () => Date): QueryPlan =>
    planLogicalOrRollup(buildLogicalQuery(model, normalizeQuery(input), { caller, now }), options.dialect, rollups);
  if (options.cache === false) return plan(() => options.now ?? new Date());
  return planOnce(model, options.dialect, caller, input, options.now, plan, rollups);
}

/** A logical query's plan: from the first offered rollup that answers it exactly, else from the warehouse. */
export function planLogicalOrRollup(logical: LogicalQuery, dialect: Dialect, rollups: readonly AvailableRollup[] = []): QueryPlan {
  const match = rollups.length > 0 ? findRollup(logical, rollups, dialect.name) : undefined;
  return match ? planFromRollup(logical, match, dialect) : planLogicalQuery(logical, dialect);
}

/** Renders a logical query to read a rollup's rows in DuckDB. */
function planFromRollup(logical: LogicalQuery, match: RollupMatch, source: Dialect): QueryPlan {
  const rendered = rollupSql(logical, match, source);
  const { columns, annotation } = describeResult(logical);
  const { pre, rollup } = match;
  return {
    sql: rendered.sql,
    params: rendered.params,
    ...(rendered.total ? { total: rendered.total } : {}),
    annotation,
    columns,
    query: logical.query,
    cubes: cubesRead(logical),
    rollup: {
      id: rollup.id,
      tableName: tableNameOf(pre.cube, pre.name),
      versions: [...rollup.versions],
      ...(rollup.inWarehouse ? { inWarehouse: true } : {}),
    },
    usedPreAggregations: rendered.usedPreAggregations,
  };
}

/** Renders a logical query for one warehouse. */
export function planLogicalQuery(logical: LogicalQuery, dialect: Dialect): QueryPlan {
  const renderer = new Renderer(logical.model, dialect, {
    caller: logical.caller,
    params: new Params(dialect),
    timezone: logical.timezone,
    filters: pushdownFilters(logical),
  });
  const rendered = renderQuery(logical, renderer);
  const { columns, annotation } = describeResult(logical);
  return { ...rendered, annotation, columns, query: logical.query, cubes: cubesRead(logical), usedPreAggregations: {} };
}

function cubesRead(logical: LogicalQuery): string[] {
  const trees = [logical.joinTree, ...logical.subQueryDimensions.map((subQuery) => subQuery.tree)];
  return [...new Set(trees.flatMap((tree) => [tree.root, ...tree.joins.map((join) => join.to)]))].sort();
}
