import type { Dialect } from '../dialects/dialect.js';
import { duckdbDialect } from '../dialects/duckdb.js';
import type { Measure, Member } from '../model.js';
import { formatWall } from '../planner/dates.js';
import { renderFilter, type FilterContext, type FilterTarget } from '../planner/filters.js';
import type { LogicalQuery } from '../planner/logical.js';
import { Params } from '../planner/render.js';
import { dimensionColumn, measureColumn, MEASURE_PARTS, segmentColumn, tableNameOf, timeColumn } from './definitions.js';
import type { RollupMatch } from './match.js';
import { PRE_AGGREGATIONS_SCHEMA, type RollupType, type UsedPreAggregation } from './types.js';

const CUBE_TYPES: Record<RollupType, UsedPreAggregation['type']> = {
  rollup: 'rollup',
  rollup_join: 'rollupJoin',
  original_sql: 'originalSql',
};

/**
 * A measure re-aggregated from its stored parts. A distinct count merges the stored value lists and
 * counts them as the source warehouse counts: `approx_count_distinct` on DuckDB (its HyperLogLog
 * depends only on the set of values, so the union of the groups' sets gives the same estimate as the
 * rows), an exact count elsewhere, where Plinth counts `count_distinct_approx` exactly.
 */
function merged(measure: Measure, reading: Reading, exact: boolean): string {
  const parts = MEASURE_PARTS[measure.type] ?? [];
  const column = (part: (typeof parts)[number]): string => reading.reader.quote(measureColumn(measure.path, part, parts));
  switch (measure.type) {
    case 'count':
      return `CAST(sum(${column('count')}) AS BIGINT)`;
    case 'sum':
      return `sum(${column('sum')})`;
    case 'min':
      return `min(${column('min')})`;
    case 'max':
      return `max(${column('max')})`;
    case 'avg':
      // DuckDB divides as floating point; PostgreSQL would divide integer sums as integers.
      return reading.reader.name === 'duckdb'
        ? `(sum(${column('sum')}) / NULLIF(sum(${column('count')}), 0))`
        : `(CAST(sum(${column('sum')}) AS numeric) / NULLIF(sum(${column('count')}), 0))`;
    case 'count_distinct_approx': {
      // Only a DuckDB reader can merge lists (see matchRollup).
      const values = `flatten(list(${column('distinct_values')}))`;
      return reading.source.name === 'duckdb'
        ? `COALESCE(list_aggregate(${values}, 'approx_count_distinct'), 0)`
        : `CAST(length(list_distinct(${values})) AS BIGINT)`;
    }
    case 'count_distinct':
      // Only read when the query's groups are the rollup's: one stored row per group.
      return exact ? `CAST(sum(${column('distinct_count')}) AS BIGINT)` : 'NULL';
    default:
      return 'NULL';
  }
}

/** The warehouse the rows came from, and the database that reads the rollup (DuckDB, or the source itself). */
interface Reading {
  readonly source: Dialect;
  readonly reader: Dialect;
}

function target(match: RollupMatch, member: Member, reading: Reading): FilterTarget {
  const q = reading.reader.quote;
  if (member.kind === 'segment') return { sql: q(segmentColumn(member.path)), type: 'boolean' };
  if (member.kind === 'measure') return { sql: merged(member, reading, match.exact), type: 'number', measureConditions: '1 = 1' };
  return { sql: q(dimensionColumn(member.path)), type: member.type === 'geo' ? 'string' : member.type };
}

export interface RollupSql {
  readonly sql: string;
  readonly params: readonly unknown[];
  readonly total?: { readonly sql: string; readonly params: readonly unknown[] };
  readonly usedPreAggregations: Record<string, UsedPreAggregation>;
}

/**
 * SQL answering the query from the rollup's rows, in the columns and order the warehouse plan has:
 * DuckDB SQL, or the source's own for a rollup kept in the source warehouse.
 */
export function rollupSql(logical: LogicalQuery, match: RollupMatch, source: Dialect): RollupSql {
  const { pre, rollup } = match;
  const reading: Reading = { source, reader: rollup.inWarehouse ? source : duckdbDialect };
  const reader = reading.reader;
  const q = reader.quote;
  const params = new Params(reader);
  const timeCol = pre.timeDimension && pre.granularity ? q(timeColumn(pre.timeDimension, pre.granularity)) : '';
  const columns = [
    ...logical.dimensions.map((dimension) => `${q(dimensionColumn(dimension.resolved.member.path))} AS ${q(dimension.alias)}`),
    ...logical.timeDimensions.map(
      (timeDimension) =>
        `${timeDimension.granularity === pre.granularity ? timeCol : reader.truncate(timeDimension.granularity, timeCol)} AS ${q(timeDimension.alias)}`,
    ),
    ...[...logical.measures, ...logical.orderOnlyMeasures].map(
      (measure) => `${merged(measure.resolved.member, reading, match.exact)} AS ${q(measure.alias)}`,
    ),
  ];
  const ctx: FilterContext = {
    dialect: reader,
    params,
    timezone: logical.timezone,
    target: (path) => {
      const member = logical.filterMembers.get(path)?.member;
      if (!member) throw new Error(`Internal error: filter member ${path} was not resolved`);
      return target(match, member, reading);
    },
  };
  const where = [
    ...logical.segments.map((segment) => q(segmentColumn(segment.member.path))),
    ...match.bucketRanges.map(
      (range) =>
        `${timeCol} >= ${reader.castParam(params.add(formatWall(range.from)), 'timestamp')} AND ${timeCol} <= ${reader.castParam(params.add(formatWall(range.to)), 'timestamp')}`,
    ),
    ...logical.rowFilters.map((filter) => renderFilter(filter, ctx)),
    ...logical.policy.render((member) => target(match, member, reading), ctx),
  ];
  const groupCount = logical.dimensions.length + logical.timeDimensions.length;
  const having = logical.measureFilters.map((filter) => renderFilter(filter, ctx));
  const body = [
    `SELECT\n  ${columns.join(',\n  ')}`,
    `FROM ${rollup.from} AS ${q(tableNameOf(pre.cube, pre.name))}`,
    ...(where.length > 0 ? [`WHERE ${where.map((condition) => `(${condition})`).join(' AND ')}`] : []),
    ...(groupCount > 0 ? [`GROUP BY ${Array.from({ length: groupCount }, (_, index) => index + 1).join(', ')}`] : []),
    ...(having.length > 0 ? [`HAVING ${having.map((condition) => `(${condition})`).join(' AND ')}`] : []),
  ].join('\n');
  const bodyParams = params.values.length;
  const orderBy = orderByClause(logical, source);
  const limit = `LIMIT ${reader.castParam(params.add(logical.limit), 'integer')}`;
  const offset = logical.offset ? ` OFFSET ${reader.castParam(params.add(logical.offset), 'integer')}` : '';
  const sql = `${body}${orderBy ? `\nORDER BY ${orderBy}` : ''}\n${limit}${offset}`;
  const tableName = tableNameOf(pre.cube, pre.name);
  const qualified = `${PRE_AGGREGATIONS_SCHEMA}.${tableName}`;
  const usedPreAggregations = {
    [qualified]: {
      targetTableName: rollup.targetTableName ?? (rollup.versions.length > 0 ? `${qualified}_${rollup.versions[0]}` : qualified),
      type: CUBE_TYPES[pre.type],
      refreshKeyValues: [...rollup.versions],
      ...(rollup.lastUpdatedAt !== undefined ? { lastUpdatedAt: rollup.lastUpdatedAt } : {}),
    },
  };
  const total = logical.total
    ? { sql: `SELECT count(*) ${q('total')} FROM (\n${body}\n) AS ${q('total_rows')}`, params: params.values.slice(0, bodyParams) }
    : undefined;
  return { sql, params: params.values, ...(total ? { total } : {}), usedPreAggregations };
}

/**
 * As the warehouse plan orders: by column position, dimensions, time dimensions, then measures, with
 * NULLs where the source warehouse puts them (PostgreSQL puts them first in a descending order).
 */
function orderByClause(logical: LogicalQuery, source: Dialect): string {
  const descending = source.name === 'postgres' ? 'DESC NULLS FIRST' : 'DESC NULLS LAST';
  const position = new Map<string, number>();
  const keys = [
    ...logical.dimensions.map((dimension) => [dimension.path]),
    ...logical.timeDimensions.map((timeDimension) => [timeDimension.path, timeDimension.key]),
    ...logical.measures.map((measure) => [measure.path]),
    ...logical.orderOnlyMeasures.map((measure) => [measure.path]),
  ];
  keys.forEach((names, index) => {
    for (const name of names) if (!position.has(name)) position.set(name, index + 1);
  });
  return logical.order
    .flatMap((entry) => {
      const column = position.get(entry.id);
      return column === undefined ? [] : [`${column} ${entry.desc ? descending : 'ASC NULLS LAST'}`];
    })
    .join(', ');
}
