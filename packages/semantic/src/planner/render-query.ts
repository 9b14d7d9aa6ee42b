import { QueryError } from '../errors.js';
import type { Member } from '../model.js';
import { formatWall, wallToUtc } from './dates.js';
import { renderFilter, type FilterContext, type FilterTarget } from './filters.js';
import { selectSql, type DimensionColumn, type MeasureColumn } from './assemble.js';
import type { LogicalDateRange, LogicalQuery } from './logical.js';
import type { LeafRef, Renderer } from './render.js';
import { hasRollingMeasures, rollingQueryBody } from './rolling-query.js';
import { subQueryAlias, type SubQueryDimension } from './sub-queries.js';

/** SQL for one logical query, with its parameters; `total` counts the rows without limit and offset. */
export interface RenderedQuery {
  readonly sql: string;
  readonly params: readonly unknown[];
  readonly total?: { readonly sql: string; readonly params: readonly unknown[] };
}

/**
 * Writes a logical query as SQL through `renderer`, which binds every value as a parameter.
 * Parameters are numbered in the order the SQL text uses them, so rendering runs front to back.
 */
export function renderQuery(logical: LogicalQuery, renderer: Renderer): RenderedQuery {
  const dialect = renderer.dialect;
  const params = renderer.params;
  const dimensionColumns: DimensionColumn[] = [
    ...logical.dimensions.map((dimension) => ({ alias: dimension.alias, expr: renderer.dimensionValue(dimension.resolved.member) })),
    ...logical.timeDimensions.map((timeDimension) => ({
      alias: timeDimension.alias,
      expr: dialect.truncate(timeDimension.granularity, renderer.dimensionValue(timeDimension.resolved.member)),
    })),
    ...logical.orderOnlyDimensions.map((dimension) => ({
      alias: dimension.alias,
      expr: renderer.dimensionValue(dimension.resolved.member),
    })),
  ];
  const measureColumns: MeasureColumn[] = [...logical.measures, ...logical.orderOnlyMeasures].map((measure) => ({
    alias: measure.alias,
    measure: measure.resolved.member,
  }));

  const filterContext = (leafRef?: LeafRef): FilterContext => ({
    dialect,
    params,
    timezone: logical.timezone,
    target: (path) => filterTarget(renderer, memberOfFilter(logical, path), leafRef),
  });
  const segmentConditions = logical.segments.map((segment) => renderer.segment(segment.member));
  const rolling = hasRollingMeasures(logical);
  // A query with rolling windows renders each date range only where it is used (see rolling-query.ts).
  const dateRanges = logical.dateRanges.map((range) => {
    let sql = rolling ? undefined : dateRangeCondition(renderer, range);
    return { range, sql: (): string => (sql ??= dateRangeCondition(renderer, range)) };
  });
  const otherConditions = [
    ...logical.rowFilters.map((filter) => renderFilter(filter, filterContext())),
    ...logical.policy.render((member) => filterTarget(renderer, member), filterContext()),
  ];
  const where: string[] = rolling ? [] : [...segmentConditions, ...dateRanges.map((entry) => entry.sql()), ...otherConditions];
  // Each measure filter is rendered once per way of referring to leaf measures, so its placeholders are bound once.
  const havingByShape = new Map<LeafRef, string[]>();
  const having = (leafRef: LeafRef): string[] => {
    let conditions = havingByShape.get(leafRef);
    if (!conditions) {
      conditions = logical.measureFilters.map((filter) => renderFilter(filter, filterContext(leafRef)));
      havingByShape.set(leafRef, conditions);
    }
    return conditions;
  };
  const body = rolling
    ? rollingQueryBody(logical, renderer, dimensionColumns, { dateRanges, others: [...segmentConditions, ...otherConditions] }, having)
    : selectSql({
        renderer,
        tree: logical.joinTree,
        dimensions: dimensionColumns,
        measures: measureColumns,
        where,
        having,
        ungrouped: logical.ungrouped,
        multiplied: logical.multiplied,
        filterLeaves: logical.filterLeafMeasures,
        preAggregated: logical.preAggregatedJoins,
        extraJoins: logical.subQueryDimensions.map((subQuery) => subQueryJoin(renderer, subQuery, filterContext())),
      });

  const orderBy = orderByClause(logical);
  const bodyParamCount = params.values.length;
  // An infinite limit (a rollup's build query) reads every row.
  const limit = Number.isFinite(logical.limit) ? `\nLIMIT ${dialect.castParam(params.add(logical.limit), 'integer')}` : '';
  const offset = logical.offset ? ` OFFSET ${dialect.castParam(params.add(logical.offset), 'integer')}` : '';
  const sql = `${body}${orderBy ? `\nORDER BY ${orderBy}` : ''}${limit}${offset}`;
  const total = logical.total
    ? {
        sql: `SELECT count(*) ${dialect.quote('total')} FROM (\n${body}\n) AS ${dialect.quote('total_rows')}`,
        params: params.values.slice(0, bodyParamCount),
      }
    : undefined;
  return { sql, params: params.values, ...(total ? { total } : {}) };
}

/**
 * Columns are numbered dimensions, time dimensions, order-only dimensions, measures, order-only measures;
 * ORDER BY refers to them by position. An order member without a column (a dimension outside GROUP BY) is
 * left out, as Cube does.
 */
function orderByClause(logical: LogicalQuery): string {
  const position = new Map<string, number>();
  const keys = [
    ...logical.dimensions.map((dimension) => [dimension.path]),
    ...logical.timeDimensions.map((timeDimension) => [timeDimension.path, timeDimension.key]),
    ...logical.orderOnlyDimensions.map((dimension) => [dimension.path]),
    ...logical.measures.map((measure) => [measure.path]),
    ...logical.orderOnlyMeasures.map((measure) => [measure.path]),
  ];
  keys.forEach((names, index) => {
    for (const name of names) if (!position.has(name)) position.set(name, index + 1);
  });
  return logical.order
    .flatMap((entry) => {
      const column = position.get(entry.id);
      return column === undefined ? [] : [`${column} ${entry.desc ? 'DESC' : 'ASC'}`];
    })
    .join(', ');
}

function memberOfFilter(logical: LogicalQuery, path: string): Member {
  const resolved = logical.filterMembers.get(path);
  if (!resolved) throw new QueryError(`Internal error: filter member ${path} was not resolved`);
  return resolved.member;
}

/** What a filter on `member` compares: its value (time in the query's zone) and, for time, the raw UTC column. */
function filterTarget(renderer: Renderer, member: Member, leafRef?: LeafRef): FilterTarget {
  if (member.kind === 'dimension') {
    // Lazy: date operators compare the raw UTC column, and a zone parameter bound but never used is an error
    // in both warehouses ("could not determine data type of parameter", "Can not bind to parameter").
    return {
      get sql(): string {
        return renderer.dimensionValue(member);
      },
      rawTimeSql: member.type === 'time' ? renderer.dimension(member) : undefined,
      // A geo value is the text `latitude,longitude`, filtered as a string.
      type: member.type === 'geo' ? 'string' : member.type,
    };
  }
  if (member.kind === 'segment') return { sql: renderer.segment(member), type: 'boolean' };
  const measureConditions = renderer.measureConditions(member);
  return { sql: leafRef ? renderer.measure(member, leafRef) : '', type: 'number', measureConditions };
}

/** A date range compares the raw UTC column with the range's bounds converted to UTC, so an index on the column serves it. */
function dateRangeCondition(renderer: Renderer, range: LogicalDateRange): string {
  const column = renderer.dimension(range.resolved.member);
  const bound = (wall: number): string =>
    renderer.dialect.castParam(renderer.params.add(formatWall(wallToUtc(wall, renderer.timezone))), 'timestamp');
  return `${column} >= ${bound(range.from)} AND ${column} <= ${bound(range.to)}`;
}

/**
 * A sub_query dimension's subquery, grouped by its cube's primary key and joined back on it. A joined
 * cube's row-level policy goes into its join condition, so the subquery aggregates the rows the caller
 * may see as if they were all there are: a key without any counts 0, as one without rows at all does.
 */
function subQueryJoin(renderer: Renderer, subQuery: SubQueryDimension, filterContext: FilterContext): string {
  const quote = (name: string): string => renderer.dialect.quote(name);
  const key = renderer.primaryKey(renderer.cube(subQuery.dimension.cube)) ?? '';
  const restrictions = subQuery.policy.renderEach((member) => filterTarget(renderer, member), filterContext);
  const placed = new Set<(typeof restrictions)[number]>();
  const joined = new Set([subQuery.tree.root]);
  const joins = subQuery.tree.joins.map((join) => {
    joined.add(join.to);
    const own = restrictions.filter(
      (restriction) => restriction.owner === join.to && [...restriction.cubes].every((cube) => joined.has(cube)),
    );
    for (const restriction of own) placed.add(restriction);
    const on = [renderer.template(join.sql), ...own.map((restriction) => restriction.sql)];
    return `LEFT JOIN ${renderer.from(renderer.cube(join.to))} ON ${on.length > 1 ? on.map((condition) => `(${condition})`).join(' AND ') : on[0]}`;
  });
  const from = [`FROM ${renderer.from(renderer.cube(subQuery.tree.root))}`, ...joins].join('\n');
  const conditions = [
    ...subQuery.segments.map((segment) => renderer.segment(segment.member)),
    ...subQuery.dateRanges.map((range) => dateRangeCondition(renderer, range)),
    ...subQuery.filters.map((filter) => renderFilter(filter, filterContext)),
    ...restrictions.filter((restriction) => !placed.has(restriction)).map((restriction) => restriction.sql),
  ].map((condition) => `(${condition})`);
  const where = conditions.length > 0 ? `\nWHERE ${conditions.join(' AND ')}` : '';
  const select = `SELECT\n  ${key} ${quote('k')},\n  ${renderer.subQueryValue(subQuery.dimension)} ${quote('v')}\n${from}${where}\nGROUP BY 1`;
  const alias = quote(subQueryAlias(subQuery.dimension));
  return `LEFT JOIN (\n${select}\n) AS ${alias} ON ${alias}.${quote('k')} = ${key}`;
}
