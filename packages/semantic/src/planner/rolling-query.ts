import { QueryError } from '../errors.js';
import type { Measure } from '../model.js';
import { joinedFrom, selectSql, type DimensionColumn } from './assemble.js';
import type { LogicalDateRange, LogicalQuery } from './logical.js';
import type { LeafRef, Renderer } from './render.js';
import { rollingSelect, type RollingSource } from './rolling.js';

/** The WHERE conditions of a query, with each date range kept apart so a rolling window can replace its own. */
export interface RollingWhere {
  /** Rendered only when a SELECT uses them, since rendering binds their parameters. */
  readonly dateRanges: ReadonlyArray<{ readonly range: LogicalDateRange; readonly sql: () => string }>;
  /** Segments, row filters and access policies. */
  readonly others: readonly string[];
}

export function hasRollingMeasures(logical: LogicalQuery): boolean {
  // Leaves of measure filters count too: a filter on a rolling measure must see its windowed value.
  return [...logical.leafMeasures.values()].some((leaf) => leaf.rollingWindow !== undefined);
}

/**
 * The body of a query with rolling-window measures, as Cube's BaseQuery builds it: the plain leaf
 * measures in one SELECT, each cumulative measure in its own (a time series joined to the base rows),
 * all joined on the query's dimensions. Calculated measures and measure filters are computed on the
 * joined result, so a number measure may divide one rolling sum by another.
 */
export function rollingQueryBody(
  logical: LogicalQuery,
  renderer: Renderer,
  dimensions: readonly DimensionColumn[],
  where: RollingWhere,
  having: (leafRef: LeafRef) => string[],
): string {
  const quote = (identifier: string): string => renderer.dialect.quote(identifier);
  if (logical.ungrouped) throw new QueryError('Rolling window measures cannot be queried ungrouped');
  const cumulative: Measure[] = [];
  const plain: Measure[] = [];
  for (const leaf of logical.leafMeasures.values()) (leaf.rollingWindow ? cumulative : plain).push(leaf);
  const rowKey = (leaf: Measure): string | undefined => {
    if (!logical.multiplied.has(leaf.path)) return undefined;
    const key = renderer.primaryKey(renderer.cube(leaf.cube));
    if (key === undefined) {
      throw new QueryError(
        `Cube ${leaf.cube} needs a primary key: its measure ${leaf.path} is repeated by a one-to-many join in this query and can only be aggregated correctly per primary key`,
      );
    }
    return key;
  };
  const seriesDimensions = logical.timeDimensions;
  if (seriesDimensions.length > 1) {
    throw new QueryError('A query with rolling window measures can have only one time dimension with a granularity');
  }
  const seriesDimension = seriesDimensions[0];
  // The window runs along the time dimension with a granularity, or else along the first date range.
  const windowed = seriesDimension ? where.dateRanges.find((entry) => entry.range.path === seriesDimension.path) : where.dateRanges[0];
  const timeMember = seriesDimension?.resolved.member ?? windowed?.range.resolved.member;
  const [bareTimeDimension] = logical.query.timeDimensions;
  if (!timeMember && bareTimeDimension) {
    // Cube's planner reads the missing date range and fails; say what is missing instead.
    throw new QueryError(
      `Time dimension ${bareTimeDimension.dimension} needs a dateRange or a granularity in a query with rolling window measures`,
    );
  }
  // Each leaf measure is one column of one part: `m0`, `m1`, … in the order of `leaves`.
  const leaves = [...plain, ...cumulative];
  const columnName = (leaf: Measure): string => `m${leaves.indexOf(leaf)}`;
  const parts: Array<{ sql: string; leaves: readonly Measure[] }> = [];
  if (plain.length > 0) {
    const sql = selectSql({
      renderer,
      tree: logical.joinTree,
      dimensions,
      measures: plain.map((leaf) => ({ alias: columnName(leaf), measure: leaf })),
      where: [...where.dateRanges.map((entry) => entry.sql()), ...where.others],
      having: () => [],
      ungrouped: false,
      multiplied: logical.multiplied,
      filterLeaves: [],
      // logical.ts plans neither pre-aggregated joins nor sub_query dimensions beside rolling windows.
      preAggregated: [],
      extraJoins: [],
      conditionsOnlyOn: () => [],
    });
    parts.push({ sql, leaves: plain });
  }
  const source: RollingSource = {
    renderer,
    from: joinedFrom(renderer, logical.joinTree),
    where: [...where.dateRanges.filter((entry) => entry !== windowed).map((entry) => entry.sql()), ...where.others],
    dimensions: dimensions.map((column, index) => ({
      alias: column.alias,
      expr: column.expr,
      ...(seriesDimension && index === logical.dimensions.length ? { series: true } : {}),
    })),
    ...(timeMember
      ? {
          time: {
            // The local value is rendered only for a series: rendering binds the zone parameter.
            ...(seriesDimension ? { expr: renderer.dimensionValue(timeMember) } : {}),
            utcExpr: renderer.dimension(timeMember),
            timezone: renderer.timezone,
            ...(seriesDimension ? { granularity: seriesDimension.granularity } : {}),
            ...(windowed ? { range: { from: windowed.range.from, to: windowed.range.to } } : {}),
          },
        }
      : {}),
  };

  for (const leaf of cumulative) parts.push({ sql: rollingSelect(source, leaf, columnName(leaf), rowKey(leaf)), leaves: [leaf] });

  const columnOf = new Map<string, string>();
  parts.forEach((part, index) => {
    for (const leaf of part.leaves) columnOf.set(leaf.path, `${quote(`q_${index}`)}.${quote(columnName(leaf))}`);
  });
  const leafRef = (leaf: Measure): string => {
    const column = columnOf.get(leaf.path);
    if (!column) throw new QueryError(`Internal error: measure ${leaf.path} was not planned`);
    return column;
  };
  const joined = parts.map((part, index) => {
    const subquery = `(\n${part.sql}\n) AS ${quote(`q_${index}`)}`;
    if (index === 0) return `FROM ${subquery}`;
    if (dimensions.length === 0) return `CROSS JOIN ${subquery}`;
    const on = dimensions.map(
      (column) => `${quote('q_0')}.${quote(column.alias)} IS NOT DISTINCT FROM ${quote(`q_${index}`)}.${quote(column.alias)}`,
    );
    return `INNER JOIN ${subquery} ON ${on.join(' AND ')}`;
  });
  const select = [
    ...dimensions.map((column) => `${quote('q_0')}.${quote(column.alias)} ${quote(column.alias)}`),
    // Measures only the order names come last, as extra columns the answer leaves out.
    ...[...logical.measures, ...logical.orderOnlyMeasures].map(
      (measure) => `${renderer.measure(measure.resolved.member, leafRef)} ${quote(measure.alias)}`,
    ),
  ];
  const conditions = having(leafRef);
  const filter = conditions.length > 0 ? `\nWHERE ${conditions.map((condition) => `(${condition})`).join(' AND ')}` : '';
  return `SELECT\n  ${select.join(',\n  ')}\n${joined.join('\n')}${filter}`;
}
