import { QueryError } from '../errors.js';
import type { Caller, DataModel, Dimension, Measure, Member, Segment } from '../model.js';
import { completeDateRangeFilters } from './date-filters.js';
import { boundFrom, boundTo } from './dates.js';
import { filterMembers } from './filters.js';
import { isMultiplied, type JoinTree } from './joins.js';
import { countsRowsByKey, leafMeasures } from './model-lookup.js';
import { joinTreeWithPolicies, type PolicyConditions } from './policy-sql.js';
import { preAggregatedJoins, type PreAggregatedJoin } from './pre-aggregated-joins.js';
import { planSubQueries, type SubQueryDimension } from './sub-queries.js';
import type { Filter, Granularity, NormalizedQuery } from './query.js';
import { relativeRange } from './relative-dates.js';
import { hiddenMember, resolveDimension, resolveMeasure, resolveMember, resolveSegment, type Resolved } from './resolve.js';

/**
 * A query after every name is bound to the model and every decision that does not depend on the
 * warehouse is taken: which members, which joins, which rows (as data, not SQL), which order.
 * Rendering it to SQL for a dialect is a separate step (render-query.ts).
 */
export interface LogicalQuery {
  readonly model: DataModel;
  readonly caller: Caller;
  /** The query as normalized, with the order actually applied; echoed in the load response. */
  readonly query: NormalizedQuery;
  readonly timezone: string;
  readonly dimensions: readonly LogicalDimension[];
  /** Time dimensions that have a granularity, once per `dimension.granularity`. */
  readonly timeDimensions: readonly LogicalTimeDimension[];
  readonly measures: readonly LogicalMeasure[];
  /**
   * Members the order names that the query does not select: computed as extra columns the answer
   * leaves out (measures always; dimensions only in ungrouped queries, where they cannot split groups).
   */
  readonly orderOnlyDimensions: readonly LogicalDimension[];
  readonly orderOnlyMeasures: readonly LogicalMeasure[];
  readonly segments: ReadonlyArray<Resolved<Segment>>;
  /** Every measure whose rows are aggregated, by path: leaves of the selected measures and of measure filters. */
  readonly leafMeasures: ReadonlyMap<string, Measure>;
  /** Leaf measures used only by measure filters. */
  readonly filterLeafMeasures: readonly Measure[];
  /** Leaf measures (by path) whose cube's rows are repeated by a one-to-many join of the tree. */
  readonly multiplied: ReadonlySet<string>;
  readonly joinTree: JoinTree;
  /** One-to-many joins to cubes that only feed measures: aggregated per near-side row before joining. */
  readonly preAggregatedJoins: readonly PreAggregatedJoin[];
  /** `sub_query` dimensions the query reads, each computed in its own subquery. */
  readonly subQueryDimensions: readonly SubQueryDimension[];
  /** `timeDimensions[].dateRange`, as inclusive wall-clock bounds in the query's time zone. */
  readonly dateRanges: readonly LogicalDateRange[];
  /** Members that filters name, bound to the model. */
  readonly filterMembers: ReadonlyMap<string, Resolved>;
  /** Filters on dimensions and segments (WHERE). */
  readonly rowFilters: readonly Filter[];
  /** Filters on measures (HAVING). */
  readonly measureFilters: readonly Filter[];
  /** Row-level access policies that apply to this caller and these members. */
  readonly policy: PolicyConditions;
  readonly order: ReadonlyArray<{ readonly id: string; readonly desc: boolean }>;
  readonly limit: number;
  readonly offset?: number;
  readonly total: boolean;
  readonly ungrouped: boolean;
}

export interface LogicalDimension {
  /** The query's name for it, and its key in result rows. */
  readonly path: string;
  readonly alias: string;
  readonly resolved: Resolved<Dimension>;
}

export interface LogicalTimeDimension {
  /** The dimension's query name. */
  readonly path: string;
  readonly granularity: Granularity;
  /** `path.granularity`, the key of its values in result rows. */
  readonly key: string;
  readonly alias: string;
  readonly resolved: Resolved<Dimension>;
  /** Cube also answers under the bare dimension name unless the query lists the dimension itself. */
  readonly alsoUnderPath: boolean;
}

export interface LogicalMeasure {
  readonly path: string;
  readonly alias: string;
  readonly resolved: Resolved<Measure>;
  /** The measures that aggregate rows for it: itself, or those a calculated measure is computed from. */
  readonly leaves: readonly Measure[];
}

export interface LogicalDateRange {
  readonly path: string;
  readonly resolved: Resolved<Dimension>;
  /** Wall-clock milliseconds in the query's time zone, both ends included. */
  readonly from: number;
  readonly to: number;
}

export interface LogicalOptions {
  readonly caller: Caller;
  /**
   * The instant relative and open-ended date ranges are computed from, read only by a query that has
   * one: a plan that never read it holds at any time (see plan-cache.ts).
   */
  readonly now: () => Date;
}

/** Binds a normalized query to the model. Throws QueryError for members, joins or dates that do not exist. */
export function buildLogicalQuery(model: DataModel, query: NormalizedQuery, options: LogicalOptions): LogicalQuery {
  const { caller } = options;
  const compared = query.timeDimensions.find((timeDimension) => timeDimension.compareDateRange);
  if (compared) {
    throw new QueryError(
      `compareDateRange on ${compared.dimension} answers several result sets: send the query with queryType "multi" (Cube answers "'compareDateRangeQuery' query type is not supported by the client")`,
    );
  }
  const measureOf = (path: string): LogicalMeasure => {
    const resolved = resolveMeasure(model, path, caller);
    return { path, alias: aliasOf(path), resolved, leaves: [...leafMeasures(model, resolved.member).values()] };
  };
  const measures = unique(query.measures).map(measureOf);
  const dimensions = unique(query.dimensions).map((path) => ({
    path,
    alias: aliasOf(path),
    resolved: resolveDimension(model, path, caller),
  }));
  const segments = unique(query.segments).map((path) => resolveSegment(model, path, caller));
  const queriedTimeDimensions = query.timeDimensions.map((timeDimension) => {
    const resolved = resolveDimension(model, timeDimension.dimension, caller);
    if (resolved.member.type !== 'time') {
      throw new QueryError(`Time dimension '${timeDimension.dimension}' must be of type time, not ${resolved.member.type}`);
    }
    return { timeDimension, resolved };
  });
  const filters = completeDateRangeFilters(query.filters, query.timezone, options.now);
  const filterResolved = new Map<string, Resolved>();
  for (const filter of filters) for (const path of filterMembers(filter)) filterResolved.set(path, resolveMember(model, path, caller));

  const timeDimensions: LogicalTimeDimension[] = [];
  for (const { timeDimension, resolved } of queriedTimeDimensions) {
    const granularity = timeDimension.granularity;
    if (!granularity) continue;
    const key = `${timeDimension.dimension}.${granularity}`;
    if (timeDimensions.some((existing) => existing.key === key)) continue;
    const alsoUnderPath = !query.dimensions.includes(timeDimension.dimension);
    timeDimensions.push({ path: timeDimension.dimension, granularity, key, alias: aliasOf(key), resolved, alsoUnderPath });
  }

  // Cube's data API refuses a selected member it hides (in the order of the result's columns); filters,
  // segments and order may still use it.
  for (const selected of [...dimensions, ...timeDimensions, ...measures]) {
    if (selected.resolved.visible) continue;
    const cubeAlias = 'granularity' in selected ? `${aliasOf(selected.path)}_${selected.granularity}` : selected.alias;
    throw hiddenMember(selected.path, cubeAlias);
  }

  const dateRanges: LogicalDateRange[] = [];
  for (const { timeDimension, resolved } of queriedTimeDimensions) {
    const range = timeDimension.dateRange;
    if (!range) continue;
    const [from, to] =
      typeof range === 'string' ? relativeRange(range, query.timezone, options.now().getTime()) : [boundFrom(range[0]), boundTo(range[1])];
    dateRanges.push({ path: timeDimension.dimension, resolved, from, to });
  }

  const order = query.order.length > 0 ? query.order : defaultOrder(query);
  const selected = new Set([
    ...dimensions.map((dimension) => dimension.path),
    ...timeDimensions.flatMap((timeDimension) => [timeDimension.path, timeDimension.key]),
    ...measures.map((measure) => measure.path),
  ]);
  const orderOnlyDimensions: LogicalDimension[] = [];
  const orderOnlyMeasures: LogicalMeasure[] = [];
  for (const { id } of order) {
    if (selected.has(id)) continue;
    selected.add(id);
    // Cube's order ids may name a time dimension with its granularity; grouped, those are never extra columns.
    if (id.split('.').length === 3) continue;
    const resolved = resolveMember(model, id, caller);
    if (resolved.member.kind === 'segment') throw new QueryError(`Order member '${id}' is a segment; order by a measure or a dimension`);
    if (resolved.member.kind === 'measure') orderOnlyMeasures.push({ ...measureOf(id), alias: `order__${aliasOf(id)}` });
    // A dimension outside GROUP BY has no single value per row: Cube leaves it out of ORDER BY, and so does this engine.
    else if (query.ungrouped)
      orderOnlyDimensions.push({ path: id, alias: `order__${aliasOf(id)}`, resolved: resolved as Resolved<Dimension> });
  }

  const [rowFilters, measureFilters] = splitFilters(filters, filterResolved);
  // An ungrouped query has no groups to filter by an aggregate: the filter would be dropped without a word.
  if (query.ungrouped && measureFilters.length > 0) throw new QueryError("Measure filters aren't allowed in ungrouped query");
  const used: Resolved[] = [
    ...measures.map((measure) => measure.resolved),
    ...dimensions.map((dimension) => dimension.resolved),
    ...queriedTimeDimensions.map((timeDimension) => timeDimension.resolved),
    ...orderOnlyDimensions.map((dimension) => dimension.resolved),
    ...orderOnlyMeasures.map((measure) => measure.resolved),
    ...segments,
    ...filterResolved.values(),
  ];
  const { joinTree, policy } = joinTreeWithPolicies(model, used, caller, query.joinHints ?? []);

  const filterLeafMeasures: Measure[] = [];
  for (const filter of measureFilters) {
    for (const path of filterMembers(filter)) {
      const member = filterResolved.get(path)?.member;
      if (member?.kind === 'measure') filterLeafMeasures.push(...leafMeasures(model, member).values());
    }
  }
  const leaves = new Map<string, Measure>();
  for (const leaf of [...[...measures, ...orderOnlyMeasures].flatMap((selectedMeasure) => selectedMeasure.leaves), ...filterLeafMeasures]) {
    leaves.set(leaf.path, leaf);
  }
  const rowMembers: Member[] = [
    ...dimensions.map((dimension) => dimension.resolved.member),
    ...queriedTimeDimensions.map((timeDimension) => timeDimension.resolved.member),
    ...orderOnlyDimensions.map((dimension) => dimension.resolved.member),
    ...segments.map((segment) => segment.member),
    ...policy.members,
    ...rowFilters.flatMap((filter) => filterMembers(filter).flatMap((path) => filterResolved.get(path)?.member ?? [])),
  ];
  // Rolling windows join their base rows themselves (rolling-query.ts) and count repeated rows per primary key.
  const rolling = [...leaves.values()].some((leaf) => leaf.rollingWindow !== undefined);
  const rowConditions = segments.length > 0 || dateRanges.length > 0 || rowFilters.length > 0 || policy.members.length > 0;
  const preAggregated =
    query.ungrouped || rolling || plainJoinSuffices(model, joinTree, leaves, rowConditions)
      ? []
      : preAggregatedJoins(model, joinTree, [...leaves.values()], rowMembers);
  const preAggregatedCubes = new Set(preAggregated.map((preAggregatedJoin) => preAggregatedJoin.cube));
  // A pre-aggregated cube is joined one row per near-side row, so it repeats nothing.
  const repeatingJoins = joinTree.joins.filter((join) => !preAggregatedCubes.has(join.to));
  const multiplied = new Set<string>();
  for (const leaf of leaves.values()) {
    if (preAggregatedCubes.has(leaf.cube)) continue;
    if (MULTIPLIABLE.has(leaf.type) && isMultiplied(leaf.cube, repeatingJoins)) multiplied.add(leaf.path);
  }

  const subQueryDimensions = planSubQueries(model, rowMembers, { filters: rowFilters, filterResolved, dateRanges, segments }, caller);
  if (rolling && subQueryDimensions.length > 0) {
    throw new QueryError(
      `A sub_query dimension (${subQueryDimensions.map((subQuery) => subQuery.dimension.path).join(', ')}) cannot be combined with rolling_window measures in one query yet`,
    );
  }
  return {
    model,
    caller,
    query: { ...query, order },
    timezone: query.timezone,
    dimensions,
    timeDimensions,
    measures,
    orderOnlyDimensions,
    orderOnlyMeasures,
    segments,
    leafMeasures: leaves,
    filterLeafMeasures,
    multiplied,
    joinTree,
    preAggregatedJoins: preAggregated,
    subQueryDimensions,
    dateRanges,
    filterMembers: filterResolved,
    rowFilters,
    measureFilters,
    policy,
    order,
    limit: query.limit,
    ...(query.offset !== undefined ? { offset: query.offset } : {}),
    total: query.total === true,
    ungrouped: query.ungrouped === true,
  };
}

/**
 * Under row conditions, when every measure the joins would repeat counts rows by key, the plain join
 * with distinct-key counts reads only the rows the conditions keep, where aggregating the far side
 * per near row first reads all of it (or repeats the conditions in a subquery and joins twice).
 * Without conditions, aggregating first is the cheaper plan, so it stays.
 */
function plainJoinSuffices(model: DataModel, tree: JoinTree, leaves: ReadonlyMap<string, Measure>, conditions: boolean): boolean {
  if (!conditions) return false;
  return [...leaves.values()].every(
    (leaf) => !MULTIPLIABLE.has(leaf.type) || !isMultiplied(leaf.cube, tree.joins) || countsRowsByKey(model, leaf),
  );
}

const MULTIPLIABLE = new Set(['count', 'sum', 'avg', 'number', 'string', 'time', 'boolean']);

/** WHERE filters and HAVING filters; one condition may not mix dimensions and measures. */
function splitFilters(filters: readonly Filter[], resolved: ReadonlyMap<string, Resolved>): [Filter[], Filter[]] {
  const rowFilters: Filter[] = [];
  const measureFilters: Filter[] = [];
  for (const filter of filters) {
    const kinds = new Set(
      filterMembers(filter).map((path) => {
        const member = resolved.get(path)?.member;
        return member?.kind === 'measure' && !isMeasureFilterOperator(filter, path) ? 'measure' : 'dimension';
      }),
    );
    if (kinds.size > 1) throw new QueryError('You cannot use dimension and measure in same condition');
    (kinds.has('measure') ? measureFilters : rowFilters).push(filter);
  }
  return [rowFilters, measureFilters];
}

/** `measureFilter` applies a measure's own filters to rows: a WHERE condition although it names a measure. */
function isMeasureFilterOperator(filter: Filter, path: string): boolean {
  if ('member' in filter) return filter.member === path && filter.operator === 'measureFilter';
  return ('and' in filter ? filter.and : filter.or).some((child) => isMeasureFilterOperator(child, path));
}

/** Cube's default order: the first time dimension with a granularity, else the first measure (descending) or dimension. */
function defaultOrder(query: NormalizedQuery): Array<{ id: string; desc: boolean }> {
  const timeDimension = query.timeDimensions.find((candidate) => candidate.granularity);
  if (timeDimension) return [{ id: timeDimension.dimension, desc: false }];
  const [measure] = query.measures;
  const [dimension] = query.dimensions;
  if (measure !== undefined && dimension !== undefined) return [{ id: measure, desc: true }];
  if (dimension !== undefined) return [{ id: dimension, desc: false }];
  return [];
}

export function aliasOf(key: string): string {
  return key.replace(/\./g, '__');
}

function unique(list: readonly string[]): string[] {
  return [...new Set(list)];
}
