import { QueryError } from '../errors.js';
import type { Caller, DataModel, Dimension, Member, Segment } from '../model.js';
import { filterMembers } from './filters.js';
import { isMultiplied, type JoinTree } from './joins.js';
import { leafMeasures, memberCubes, memberNamed, primaryKeyDimension, referencedCubes } from './model-lookup.js';
import { joinTreeWithPolicies, type PolicyConditions } from './policy-sql.js';
import type { LogicalDateRange } from './logical.js';
import type { Filter } from './query.js';
import type { Resolved } from './resolve.js';

/**
 * A `sub_query: true` dimension: its SQL aggregates measures of other cubes, so it is computed in a
 * subquery grouped by its cube's primary key and joined back on that key, as Cube does.
 */
export interface SubQueryDimension {
  readonly dimension: Dimension;
  /** The subquery's joins, from the dimension's cube to the cubes its measures read. */
  readonly tree: JoinTree;
  /**
   * With `propagate_filters_to_sub_query`: the query's row filters, date ranges and segments on the
   * subquery's cubes (Cube passes its filters, time dimensions and segments to the subquery).
   */
  readonly filters: readonly Filter[];
  readonly dateRanges: readonly LogicalDateRange[];
  readonly segments: ReadonlyArray<Resolved<Segment>>;
  /** The row-level access policies of the subquery's cubes: the rows it aggregates are the caller's only. */
  readonly policy: PolicyConditions;
}

export function subQueryAlias(dimension: Dimension): string {
  return `${dimension.cube}__${dimension.name}__subquery`;
}

/** The query's row conditions a sub_query dimension may take into its subquery. */
export interface RowConditions {
  readonly filters: readonly Filter[];
  readonly filterResolved: ReadonlyMap<string, Resolved>;
  readonly dateRanges: readonly LogicalDateRange[];
  readonly segments: ReadonlyArray<Resolved<Segment>>;
}

/** The sub_query dimensions among `rowMembers`, each with its own join tree. */
export function planSubQueries(model: DataModel, rowMembers: readonly Member[], row: RowConditions, caller: Caller): SubQueryDimension[] {
  const planned = new Map<string, SubQueryDimension>();
  for (const member of rowMembers) {
    if (member.kind !== 'dimension' || !member.subQuery || planned.has(member.path)) continue;
    const cube = model.cubes.get(member.cube);
    if (!cube || !primaryKeyDimension(cube)) {
      throw new QueryError(`sub_query dimension ${member.path} needs a primary key on cube ${member.cube} to join its subquery back`);
    }
    const cubes = new Set([member.cube]);
    referencedCubes(model, member.sql, cubes);
    // The subquery reads its cubes' rows itself, so their row-level policies apply inside it (they may join more cubes).
    const { joinTree: tree, policy } = joinTreeWithPolicies(model, [], caller, [[member.cube]], cubes);
    for (const part of member.sql?.parts ?? []) {
      if (typeof part === 'string' || part.kind !== 'member') continue;
      const referenced = memberNamed(model, part.cube, part.member);
      if (referenced.kind !== 'measure') continue;
      for (const leaf of leafMeasures(model, referenced).values()) {
        if (leaf.type !== 'count_distinct' && leaf.type !== 'count_distinct_approx' && isMultiplied(leaf.cube, tree.joins)) {
          throw new QueryError(
            `sub_query dimension ${member.path}: measure ${leaf.path} is repeated by a one-to-many join inside its subquery`,
          );
        }
      }
    }
    // A condition on a sub_query dimension (this one or another) cannot go in: its value is this subquery's result.
    const inTree = (conditionMember: Member | undefined): boolean => {
      if (!conditionMember || (conditionMember.kind === 'dimension' && conditionMember.subQuery)) return false;
      const reached = new Set<string>();
      memberCubes(model, conditionMember, reached);
      return [...reached].every((name) => cubes.has(name) || tree.joins.some((join) => join.to === name));
    };
    const propagate = member.propagateFiltersToSubQuery === true;
    planned.set(member.path, {
      dimension: member,
      tree,
      filters: propagate
        ? row.filters.filter((filter) => filterMembers(filter).every((path) => inTree(row.filterResolved.get(path)?.member)))
        : [],
      dateRanges: propagate ? row.dateRanges.filter((range) => inTree(range.resolved.member)) : [],
      segments: propagate ? row.segments.filter((segment) => inTree(segment.member)) : [],
      policy,
    });
  }
  return [...planned.values()];
}
