import { QueryError } from '../errors.js';
import { boundFrom, boundTo, formatWall } from './dates.js';
import { normalizeQuery, type Granularity, type NormalizedQuery, type TimeDimension } from './query.js';
import { relativeRange } from './relative-dates.js';

/** Cube's names for what a load request asks: one query, one per compared date range, or blended queries. */
export type QueryType = 'regularQuery' | 'compareDateRangeQuery' | 'blendingQuery';

/** The query @cubejs-client/core pivots the results by, as Cube's api-gateway builds it. */
export type PivotQuery = Partial<NormalizedQuery> & {
  measures: string[];
  dimensions: string[];
  timeDimensions: TimeDimension[] | Array<{ dimension: 'time'; granularity: Granularity }>;
  queryType: QueryType;
};

export interface FannedOut {
  readonly queryType: QueryType;
  readonly queries: readonly NormalizedQuery[];
  /** For a compareDateRange query: the time dimension whose ranges are compared, by position. */
  readonly comparedIndex?: number;
}

/**
 * A load request as several queries, as Cube's api-gateway does: an array is a blending query; one
 * time dimension with `compareDateRange` makes one query per range, each with that range resolved.
 */
export function fanOut(request: unknown, now: Date): FannedOut {
  if (Array.isArray(request)) return blend(request.map((query) => normalizeQuery(query)));
  const query = normalizeQuery(request);
  const compared = query.timeDimensions.flatMap((timeDimension, index) => (timeDimension.compareDateRange ? [index] : []));
  if (compared.length > 1) throw new QueryError('compareDateRange can only exist for one timeDimension');
  const [comparedIndex] = compared;
  if (comparedIndex === undefined) return { queryType: 'regularQuery', queries: [query] };
  const ranges = query.timeDimensions[comparedIndex]?.compareDateRange ?? [];
  const queries = ranges.map((range): NormalizedQuery => ({
    ...query,
    timeDimensions: query.timeDimensions.map((timeDimension, index) => {
      if (index !== comparedIndex) return timeDimension;
      const { compareDateRange: _ranges, ...single } = timeDimension;
      return { ...single, dateRange: resolvedRange(range, query.timezone, now) };
    }),
  }));
  return { queryType: 'compareDateRangeQuery', queries, comparedIndex };
}

/**
 * The query @cubejs-client/core pivots a multi answer by, from the queries as answered (with their order):
 * the first query, with a `compareDateRange` dimension when ranges are compared; for blending, every
 * query's measures and dimensions on one `time` axis.
 */
export function pivotQueryOf(queryType: QueryType, answered: readonly NormalizedQuery[]): PivotQuery {
  const [first] = answered;
  if (!first) throw new QueryError('A load request needs at least one query');
  if (queryType === 'blendingQuery') {
    const union = (key: 'measures' | 'dimensions'): string[] => [...new Set(answered.flatMap((query) => query[key]))];
    // As Cube: the granularity of the first query that has one (blend() checked that they all agree).
    const [granularity] = answered.flatMap((query) => query.timeDimensions[0]?.granularity ?? []);
    if (!granularity) throw new QueryError('Data blending query without granularity is not supported');
    return {
      measures: union('measures'),
      dimensions: union('dimensions'),
      timeDimensions: [{ dimension: 'time', granularity }],
      queryType,
    };
  }
  if (queryType === 'compareDateRangeQuery') return { ...first, dimensions: ['compareDateRange', ...first.dimensions], queryType };
  return { ...first, queryType };
}

/** Blended queries must share one granularity on their first time dimension, which the pivot puts on one `time` axis. */
function blend(queries: NormalizedQuery[]): FannedOut {
  if (queries.length === 0) throw new QueryError('A blending query needs at least one query');
  // Cube fans out compareDateRange only for a single query; inside an array it would answer the whole table.
  if (queries.some((query) => query.timeDimensions.some((timeDimension) => timeDimension.compareDateRange))) {
    throw new QueryError('compareDateRange is not supported in a data blending query (an array of queries): send it as a query of its own');
  }
  const granularities = [...new Set(queries.flatMap((query) => query.timeDimensions[0]?.granularity ?? []))];
  if (granularities.length > 1) throw new QueryError('Data blending query granularities must match');
  const [granularity] = granularities;
  if (!granularity) throw new QueryError('Data blending query without granularity is not supported');
  return { queryType: 'blendingQuery', queries };
}

/** A range as Cube's api-gateway resolves it: local ISO bounds, a bare date starting at 00:00 and ending at 23:59:59.999. */
function resolvedRange(range: string | [string, string], timezone: string, now: Date): [string, string] {
  const [from, to] = typeof range === 'string' ? relativeRange(range, timezone, now.getTime()) : [boundFrom(range[0]), boundTo(range[1])];
  return [formatWall(from), formatWall(to)];
}
