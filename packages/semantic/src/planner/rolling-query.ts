import { QueryError } from '../errors.js';
import type { Measure } from '../model.js';
import { joinedFrom, selectSql, type DimensionColumn } from './assemble.js';
import type { LogicalDateRange, LogicalMeasure, LogicalQuery } from './logical.js';
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
  return logical.measures.some((measure) => measure.leaves.some((leaf) => leaf.rollingWindow !== undefined));
}

/**
 * The body of a query with rolling-window measures, as Cube's BaseQuery builds it: the plain measures
 * in one SELECT, each cumulative measure in its own (a time series joined to the base rows), all joined
 * on the query's dimensions; measure filters apply to the joined result.
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
  const cumulative: LogicalMeasure[] = [];
  const plain: LogicalMeasure[] = [];
  for (const measure of logical.measures) {
    const member = measure.resolved.member;
    if (member.rollingWindow) cumulative.push(measure);
    else if (measure.leaves.some((leaf) => leaf.rollingWindow)) {
      throw new QueryError(`Measure ${measure.path} is computed from a rolling window measure, which is not supported yet`);
    } else plain.push(measure);
    if (member.rollingWindow && logical.multiplied.has(member.path)) {
      throw new QueryError(
        `Rolling window measure ${measure.path} is repeated by a one-to-many join in this query, which is not supported yet`,
      );
    }
  }
  const seriesDimensions = logical.timeDimensions;
  if (seriesDimensions.length > 1) {
    throw new QueryError('A query with rolling window measures can have only one time dimension with a granularity');
  }
  const seriesDimension = seriesDimensions[0];
  // The window runs along the time dimension with a granularity, or else along the first date range.
  const windowed = seriesDimension ? where.dateRanges.find((entry) => entry.range.path === seriesDimension.path) : where.dateRanges[0];
  const timeMember = seriesDimension?.resolved.member ?? windowed?.range.resolved.member;
  const parts: Array<{ sql: string; measures: readonly LogicalMeasure[] }> = [];
  if (plain.length > 0) {
    const sql = selectSql({
      renderer,
      tree: logical.joinTree,
      dimensions,
      measures: plain.map((measure) => ({ alias: measure.alias, measure: measure.resolved.member })),
      where: [...where.dateRanges.map((entry) => entry.sql()), ...where.others],
      having: () => [],
      ungrouped: false,
      multiplied: logical.multiplied,
      filterLeaves: [],
    });
    parts.push({ sql, measures: plain });
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
            expr: renderer.dimensionValue(timeMember),
            ...(seriesDimension ? { granularity: seriesDimension.granularity } : {}),
            ...(windowed ? { range: { from: windowed.range.from, to: windowed.range.to } } : {}),
          },
        }
      : {}),
  };

  for (const measure of cumulative) parts.push({ sql: rollingSelect(source, measure.resolved.member, measure.alias), measures: [measure] });

  const columnOf = new Map<string, string>();
  parts.forEach((part, index) => {
    for (const measure of part.measures) columnOf.set(measure.resolved.member.path, `${quote(`q_${index}`)}.${quote(measure.alias)}`);
  });
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
    ...logical.measures.map((measure) => `${columnOf.get(measure.resolved.member.path) ?? 'NULL'} ${quote(measure.alias)}`),
  ];
  // Measure filters read the joined columns; a filtered measure must be one the query selects.
  const leafRef = (leaf: Measure): string => {
    const column = columnOf.get(leaf.path);
    if (!column)
      throw new QueryError(`Filtering on ${leaf.path} in a query with rolling window measures needs ${leaf.path} among its measures`);
    return column;
  };
  const conditions = having(leafRef);
  const filter = conditions.length > 0 ? `\nWHERE ${conditions.map((condition) => `(${condition})`).join(' AND ')}` : '';
  return `SELECT\n  ${select.join(',\n  ')}\n${joined.join('\n')}${filter}`;
}
