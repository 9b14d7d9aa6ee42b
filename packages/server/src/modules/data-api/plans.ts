import { planQuery, QueryError, type QueryPlan } from '@plinth/semantic';
import type { Served } from './service.js';

/**
 * `/v1/sql` and `/v1/dry-run`: what a load would run, without running it. A single query, or an
 * array planned query by query (Cube's data blending); the query types that split one query into
 * several (compareDateRange) are answered by load only.
 */
function plansOf(served: Served, request: unknown): QueryPlan[] {
  const queries = Array.isArray(request) ? request : [request];
  if (queries.length === 0) throw new QueryError('A request needs at least one query');
  return queries.map((query) => planQuery(served.model, query, { dialect: served.warehouse.dialect, caller: served.caller }));
}

const queryTypeOf = (request: unknown) => (Array.isArray(request) ? 'blendingQuery' : 'regularQuery');

/** Cube's `{sql: {sql: [text, params], ...}}`; an array answers one entry per query. */
export function sqlOf(served: Served, request: unknown) {
  const entries = plansOf(served, request).map((plan) => ({
    sql: [plan.sql, [...plan.params]] as [string, unknown[]],
    order: plan.query.order,
    dataSource: 'default',
    preAggregations: [] as unknown[],
    rollupMatchResults: [] as unknown[],
    external: false,
  }));
  return Array.isArray(request) ? { queryType: queryTypeOf(request), sql: entries } : { sql: entries[0]! };
}

/** Cube's dry-run: the normalized queries, their order and the pivot query, nothing run. */
export function dryRunOf(served: Served, request: unknown) {
  const queries = plansOf(served, request).map((plan) => plan.query);
  const queryType = queryTypeOf(request);
  const [first] = queries;
  return {
    queryType,
    normalizedQueries: queries,
    queryOrder: queries.map((query) => Object.fromEntries(query.order.map((o) => [o.id, o.desc ? 'desc' : 'asc']))),
    pivotQuery: { ...first!, queryType },
    transformedQueries: queries.map(() => null),
  };
}
