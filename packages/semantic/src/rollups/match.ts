import type { DataModel, Measure, PreAggregation } from '../model.js';
import { boundFrom, startOf } from '../planner/dates.js';
import { buildLogicalQuery, type LogicalQuery } from '../planner/logical.js';
import { filterMembers } from '../planner/filters.js';
import { isCalculated } from '../planner/model-lookup.js';
import { EVERYONE } from '../planner/policy.js';
import { normalizeQuery } from '../planner/query.js';
import { buildModelOf, segmentFlagOf } from './build-model.js';
import { findPreAggregation, MEASURE_PARTS } from './definitions.js';
import { rollsUpInto } from './granularity.js';
import type { AvailableRollup } from './types.js';

/** A rollup that answers a query, and how the date ranges read its time column. */
export interface RollupMatch {
  readonly rollup: AvailableRollup;
  readonly pre: PreAggregation;
  /** Each date range of the query as wall-clock bounds on the rollup's bucket column, both included. */
  readonly bucketRanges: ReadonlyArray<{ readonly from: number; readonly to: number }>;
  /** Whether the query groups by exactly the rollup's columns (a `count_distinct` is then read as stored). */
  readonly exact: boolean;
}

interface TreeShape {
  readonly root: string;
  /** `from>to` → relationship. */
  readonly joins: ReadonlyMap<string, string>;
}

const joinTrees = new WeakMap<DataModel, Map<string, TreeShape>>();

/** The joins a rollup's build query makes, to compare with a query's. */
function rollupJoinTree(model: DataModel, id: string, pre: PreAggregation): TreeShape {
  let byId = joinTrees.get(model);
  if (!byId) joinTrees.set(model, (byId = new Map()));
  let tree = byId.get(id);
  if (tree === undefined) {
    const buildModel = buildModelOf(model, 'list');
    const query = {
      measures: pre.measures,
      dimensions: [...pre.dimensions, ...pre.segments.map((path) => `${path.split('.')[0]}.${segmentFlagOf(path.split('.')[1] ?? '')}`)],
      timeDimensions: pre.timeDimension ? [{ dimension: pre.timeDimension }] : [],
    };
    const logical = buildLogicalQuery(buildModel, normalizeQuery(query), { caller: EVERYONE, now: () => new Date() });
    tree = treeShape(logical);
    byId.set(id, tree);
  }
  return tree;
}

function treeShape(logical: LogicalQuery): TreeShape {
  return {
    root: logical.joinTree.root,
    joins: new Map(logical.joinTree.joins.map((join) => [`${join.from}>${join.to}`, join.relationship])),
  };
}

/**
 * The rollup's rows are the query's rows when both start from the same cube and the rollup's joins
 * are the query's plus joins to at most one row each (many_to_one, as Cube assumes of a primary key):
 * a LEFT JOIN of those neither drops nor repeats a row.
 */
function sameRows(query: TreeShape, rollup: TreeShape): boolean {
  if (query.root !== rollup.root) return false;
  for (const join of query.joins.keys()) if (!rollup.joins.has(join)) return false;
  for (const [join, relationship] of rollup.joins) if (!query.joins.has(join) && relationship !== 'many_to_one') return false;
  return true;
}

function storable(model: DataModel, measure: Measure): boolean {
  return !isCalculated(model, measure) && !measure.rollingWindow && MEASURE_PARTS[measure.type] !== undefined;
}

/**
 * Why `rollup` cannot answer `logical` exactly, or the match. Each rule keeps the rollup's answer
 * equal to the warehouse's: see README "Pre-aggregations".
 */
export function matchRollup(logical: LogicalQuery, rollup: AvailableRollup, sourceName: string): RollupMatch | string {
  const model = logical.model;
  let pre: PreAggregation;
  try {
    pre = findPreAggregation(model, rollup.id).pre;
  } catch {
    return `no pre-aggregation ${rollup.id}`;
  }
  if (pre.type === 'original_sql') return 'an original_sql pre-aggregation answers no query';
  if (logical.ungrouped) return 'the query is ungrouped';
  if (logical.subQueryDimensions.length > 0) return 'the query reads sub_query dimensions';
  if ((rollup.timezone ?? 'UTC') !== logical.timezone)
    return `the rollup was built in ${rollup.timezone ?? 'UTC'}, the query asks for ${logical.timezone}`;

  const measures = [...logical.measures, ...logical.orderOnlyMeasures].map((measure) => measure.resolved.member);
  for (const measure of [...measures, ...logical.filterLeafMeasures]) {
    if (!storable(model, measure)) return `measure ${measure.path} cannot be read from a rollup`;
    if (!pre.measures.includes(measure.path)) return `measure ${measure.path} is not in the rollup`;
    if (measure.type === 'count_distinct_approx' && rollup.inWarehouse && sourceName !== 'duckdb') {
      return `measure ${measure.path} merges value lists, which only DuckDB reads`;
    }
  }
  const dimensions = new Set<string>();
  for (const dimension of logical.dimensions) {
    if (!pre.dimensions.includes(dimension.resolved.member.path)) return `dimension ${dimension.path} is not in the rollup`;
    dimensions.add(dimension.resolved.member.path);
  }
  const granularities = new Set<string>();
  for (const timeDimension of logical.timeDimensions) {
    const path = timeDimension.resolved.member.path;
    if (path !== pre.timeDimension || !pre.granularity) return `time dimension ${timeDimension.path} is not the rollup's`;
    if (!rollsUpInto(pre.granularity, timeDimension.granularity)) {
      return `granularity ${timeDimension.granularity} is not made of whole ${pre.granularity} buckets`;
    }
    granularities.add(timeDimension.granularity);
  }
  const segments = new Set(logical.segments.map((segment) => segment.member.path));
  for (const segment of segments) if (!pre.segments.includes(segment)) return `segment ${segment} is not in the rollup`;

  for (const filter of logical.rowFilters) {
    for (const path of filterMembers(filter)) {
      const member = logical.filterMembers.get(path)?.member;
      if (!member) return `filter member ${path} is unknown`;
      if (member.kind === 'segment' ? !pre.segments.includes(member.path) : !pre.dimensions.includes(member.path)) {
        return `filter on ${path}, which is not in the rollup`;
      }
      if (member.kind === 'dimension' && member.type === 'time')
        return `filter on time member ${path} compares instants, which the rollup does not keep`;
    }
  }
  for (const member of logical.policy.members) {
    if (member.kind === 'segment' ? !pre.segments.includes(member.path) : !pre.dimensions.includes(member.path)) {
      return `an access policy filters on ${member.path}, which is not in the rollup`;
    }
    if (member.kind === 'dimension' && member.type === 'time') return `an access policy filters on time member ${member.path}`;
  }

  const bucketRanges: Array<{ from: number; to: number }> = [];
  for (const range of logical.dateRanges) {
    if (range.resolved.member.path !== pre.timeDimension || !pre.granularity)
      return `date range on ${range.path}, which is not the rollup's time dimension`;
    const aligned = startOf(range.from, pre.granularity) === range.from && startOf(range.to + 1, pre.granularity) === range.to + 1;
    if (!aligned && !pre.allowNonStrictDateRangeMatch) return `date range is not aligned to ${pre.granularity}`;
    if (rollup.covers && (range.from < boundFrom(rollup.covers.start) || range.to >= boundFrom(rollup.covers.end))) {
      return 'the date range reaches past the built partitions';
    }
    bucketRanges.push({ from: startOf(range.from, pre.granularity), to: range.to });
  }
  // A rollup with its own build range holds only that range: a query must stay inside it.
  if (logical.dateRanges.length === 0 && (pre.buildRangeStart || pre.buildRangeEnd))
    return 'the rollup covers only its build range, and the query has no date range';

  const exact =
    dimensions.size === pre.dimensions.length &&
    pre.segments.every((segment) => segments.has(segment)) &&
    (pre.granularity ? granularities.size === 1 && granularities.has(pre.granularity) : true);
  for (const measure of measures) {
    if (measure.type === 'count_distinct' && !exact)
      return `count_distinct measure ${measure.path} does not add up across the rollup's groups`;
  }
  if (!sameRows(treeShape(logical), rollupJoinTree(model, rollup.id, pre))) return 'the rollup joins its rows otherwise than the query';
  return { rollup, pre, bucketRanges, exact };
}

/** The first offered rollup that answers the query exactly. */
export function findRollup(logical: LogicalQuery, rollups: readonly AvailableRollup[], sourceName: string): RollupMatch | undefined {
  for (const rollup of rollups) {
    const match = matchRollup(logical, rollup, sourceName);
    if (typeof match !== 'string') return match;
  }
  return undefined;
}
