import { fanOut, pivotQueryOf, planFannedOut, type QueryPlan, type QueryType } from '@plinth/semantic';
import type { Served } from './service.js';

/**
 * `/v1/sql` and `/v1/dry-run`: what a load would run, without running it. They take every query
 * shape load takes, as Cube's gateway normalizes all three alike: a single query, an array
 * (blending: its granularities must match) and a compareDateRange query (one plan per range), and
 * refuse what load refuses. Unlike load, they need no `queryType: "multi"` to answer several.
 */
function plansOf(served: Served, request: unknown): { queryType: QueryType; plans: QueryPlan[] } {
  const now = new Date();
  const fannedOut = fanOut(request, now);
  const plans = planFannedOut(served.model, fannedOut, {
    dialect: served.warehouse.dialect,
    caller: served.caller,
    now,
    ...(served.rollups ? { rollups: served.rollups } : {}),
  });
  return { queryType: fannedOut.queryType, plans };
}

/** Cube's order of a planned query: member → `asc` or `desc`, in the order the SQL sorts by. */
const orderOf = (plan: QueryPlan) => Object.fromEntries(plan.query.order.map((order) => [order.id, order.desc ? 'desc' : 'asc']));

/**
 * Cube's `{sql: {sql: [text, params], order, ...}}`; a blending or compareDateRange query answers
 * an array of them, one per query, which @cubejs-client/core turns into one SqlQuery each.
 */
export function sqlOf(served: Served, request: unknown) {
  const { queryType, plans } = plansOf(served, request);
  const entries = plans.map((plan) => ({
    sql: {
      sql: [plan.sql, [...plan.params]] as [string, unknown[]],
      order: orderOf(plan),
      dataSource: 'default',
      // A query a rollup answers shows the rollup's SQL and which rollup, as Cube shows its pre-aggregations: `external`
      // when the rollup store runs it (DuckDB SQL), not for a rollup kept in the source warehouse (the source's SQL).
      preAggregations: (plan.rollup ? [{ preAggregationId: plan.rollup.id, tableName: plan.rollup.tableName }] : []) as unknown[],
      rollupMatchResults: [] as unknown[],
      external: plan.rollup !== undefined && !plan.rollup.inWarehouse,
    },
    dataSource: 'default',
  }));
  return queryType === 'regularQuery' ? entries[0]! : entries;
}

/** Cube's dry-run: the normalized queries, their order and the pivot query, nothing run. */
export function dryRunOf(served: Served, request: unknown) {
  const { queryType, plans } = plansOf(served, request);
  const queries = plans.map((plan) => plan.query);
  return {
    queryType,
    normalizedQueries: queries,
    queryOrder: plans.map(orderOf),
    pivotQuery: pivotQueryOf(queryType, queries),
    transformedQueries: queries.map(() => null),
  };
}
