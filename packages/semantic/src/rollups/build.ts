import type { Dialect } from '../dialects/dialect.js';
import type { DataModel, SqlTemplate } from '../model.js';
import { boundFrom, formatWall } from '../planner/dates.js';
import { buildLogicalQuery } from '../planner/logical.js';
import { planLogicalQuery } from '../planner/plan.js';
import { EVERYONE } from '../planner/policy.js';
import { normalizeQuery, type Filter, type Query } from '../planner/query.js';
import { Params, Renderer } from '../planner/render.js';
import { buildModelOf, countOf, segmentFlagOf, sumOf, valuesOf } from './build-model.js';
import { findPreAggregation, memberAt, rollupColumns } from './definitions.js';
import type { RollupBuildOptions, RollupBuildPlan, RollupColumn, SqlPlan } from './types.js';

/** The aggregate that collects distinct values into a list, per source warehouse. */
export function listAggregateOf(dialect: Dialect): string {
  return dialect.name === 'duckdb' ? 'list' : 'array_agg';
}

function helperPath(model: DataModel, column: RollupColumn): string {
  const [cube = '', name = ''] = column.member.split('.');
  if (column.role === 'segment') return `${cube}.${segmentFlagOf(name)}`;
  const measure = memberAt(model, column.member);
  if (column.role !== 'measure-part' || measure?.kind !== 'measure') return column.member;
  if (measure.type === 'avg') return `${cube}.${column.part === 'sum' ? sumOf(name) : countOf(name)}`;
  if (measure.type === 'count_distinct_approx') return `${cube}.${valuesOf(name)}`;
  return column.member;
}

/**
 * SQL for the source warehouse that produces the rows of one partition of a rollup (every row when
 * unpartitioned or when `partition` is left out), grouped at the rollup's granularity. Built through
 * the planner on the build model (build-model.ts), so the rows are exactly those a query reads.
 */
export function rollupBuildPlan(
  model: DataModel,
  id: string,
  dialect: Dialect,
  partition?: { readonly start: string; readonly end: string },
  options: RollupBuildOptions = {},
): RollupBuildPlan {
  const { cube, pre } = findPreAggregation(model, id);
  const timezone = options.timezone ?? 'UTC';
  if (pre.type === 'original_sql') {
    const renderer = new Renderer(model, dialect, { caller: EVERYONE, params: new Params(dialect), timezone, filters: [] });
    return { sql: `SELECT * FROM ${renderer.from(cube)}`, params: renderer.params.values, columns: [] };
  }
  if (partition && !pre.timeDimension) throw new Error(`Pre-aggregation ${id} has no time dimension to partition by`);
  const columns = rollupColumns(model, pre);
  const buildModel = buildModelOf(model, listAggregateOf(dialect));
  const paths = new Map(columns.map((column) => [column.name, helperPath(model, column)]));
  const byRole = (roles: readonly RollupColumn['role'][]): string[] =>
    columns.filter((column) => roles.includes(column.role)).map((column) => paths.get(column.name) ?? column.member);
  const query: Query = {
    measures: byRole(['measure-part']),
    dimensions: byRole(['dimension', 'segment']),
    timeDimensions: pre.timeDimension
      ? [
          {
            dimension: pre.timeDimension,
            ...(pre.granularity ? { granularity: pre.granularity } : {}),
            ...(partition ? { dateRange: [partition.start, formatWall(boundFrom(partition.end) - 1)] } : {}),
          },
        ]
      : [],
    timezone,
  };
  const logical = buildLogicalQuery(buildModel, normalizeQuery(query), { caller: EVERYONE, now: () => new Date() });
  // Every row of the partition, in no particular order: the store sorts if it wants to.
  const plan = planLogicalQuery({ ...logical, order: [], limit: Infinity }, dialect);
  const aliases = new Map(plan.columns.flatMap((column) => column.keys.map((key) => [key, column.alias] as const)));
  const select = columns.map((column) => {
    const key = column.role === 'time' ? `${column.member}.${pre.granularity}` : (paths.get(column.name) ?? column.member);
    return `${dialect.quote(aliases.get(key) ?? key)} AS ${dialect.quote(column.name)}`;
  });
  return {
    sql: `SELECT\n  ${select.join(',\n  ')}\nFROM (\n${plan.sql}\n) AS ${dialect.quote('rollup_source')}`,
    params: plan.params,
    columns,
  };
}

function renderSnippet(model: DataModel, dialect: Dialect, template: SqlTemplate, filters: readonly Filter[], timezone: string): SqlPlan {
  const renderer = new Renderer(model, dialect, { caller: EVERYONE, params: new Params(dialect), timezone, filters });
  return { sql: renderer.template(template), params: renderer.params.values };
}

/**
 * One row with columns `start` and `end`: the range partitions are built over, from
 * `build_range_start`/`build_range_end` or else the least and greatest value of the time dimension
 * (as wall-clock time in the rollup's time zone).
 */
export function rollupRangePlan(model: DataModel, id: string, dialect: Dialect, options: RollupBuildOptions = {}): SqlPlan {
  const { cube, pre } = findPreAggregation(model, id);
  if (!pre.timeDimension) throw new Error(`Pre-aggregation ${id} has no time dimension, so no build range`);
  const timezone = options.timezone ?? 'UTC';
  const renderer = new Renderer(buildModelOf(model, listAggregateOf(dialect)), dialect, {
    caller: EVERYONE,
    params: new Params(dialect),
    timezone,
    filters: [],
  });
  const own = (template: SqlTemplate | undefined): string | undefined =>
    template ? `(SELECT * FROM (${renderer.template(template)}) AS ${dialect.quote('bound')} LIMIT 1)` : undefined;
  const start = own(pre.buildRangeStart);
  const end = own(pre.buildRangeEnd);
  const dimension = memberAt(model, pre.timeDimension);
  if (start && end)
    return { sql: `SELECT ${start} AS ${dialect.quote('start')}, ${end} AS ${dialect.quote('end')}`, params: renderer.params.values };
  const timeCube = renderer.cube(pre.timeDimension.split('.')[0] ?? cube.name);
  const value = dimension?.kind === 'dimension' ? renderer.dimensionValue(dimension) : 'NULL';
  const sql =
    `SELECT ${start ?? `min(${value})`} AS ${dialect.quote('start')}, ${end ?? `max(${value})`} AS ${dialect.quote('end')}\n` +
    `FROM ${renderer.from(timeCube)}`;
  return { sql, params: renderer.params.values };
}

/**
 * One row, one column `value`: the `refresh_key.sql` value of a rollup (`cube.name`, falling back to
 * its cube's key as Cube does) or of a cube (`cube`); undefined when there is no SQL key. For one
 * partition, `FILTER_PARAMS` of the rollup's time dimension in the key read the partition's range,
 * so each partition can have a key of its own (Cube's "refreshing select partitions").
 */
export function refreshKeyPlan(
  model: DataModel,
  id: string,
  dialect: Dialect,
  partition?: { readonly start: string; readonly end: string },
  options: RollupBuildOptions = {},
): SqlPlan | undefined {
  const dot = id.indexOf('.');
  const cube = model.cubes.get(dot < 0 ? id : id.slice(0, dot));
  if (!cube) throw new Error(`No cube ${id} in the model`);
  let template = cube.refreshKey?.sql;
  const filters: Filter[] = [];
  if (dot >= 0) {
    const pre = findPreAggregation(model, id).pre;
    template = pre.refreshKey ? pre.refreshKey.sql : template;
    if (partition && pre.timeDimension) {
      filters.push({
        member: pre.timeDimension,
        operator: 'inDateRange',
        values: [partition.start, formatWall(boundFrom(partition.end) - 1)],
      });
    }
  }
  if (!template) return undefined;
  const snippet = renderSnippet(model, dialect, template, filters, options.timezone ?? 'UTC');
  return { sql: `SELECT (${snippet.sql}) AS ${dialect.quote('value')}`, params: snippet.params };
}
