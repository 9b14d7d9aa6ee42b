import { QueryError } from '../errors.js';
import type { Caller, DataModel, Dimension, Member } from '../model.js';
import { filterMembers } from './filters.js';
import { isMultiplied, type JoinTree } from './joins.js';
import { leafMeasures, memberCubes, memberNamed, primaryKeyDimension, referencedCubes } from './model-lookup.js';
import { joinTreeWithPolicies, type PolicyConditions } from './policy-sql.js';
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
  /** With `propagate_filters_to_sub_query`: the query's row filters on the subquery's cubes. */
  readonly filters: readonly Filter[];
  /** The row-level access policies of the subquery's cubes: the rows it aggregates are the caller's only. */
  readonly policy: PolicyConditions;
}

export function subQueryAlias(dimension: Dimension): string {
  return `${dimension.cube}__${dimension.name}__subquery`;
}

/** The sub_query dimensions among `rowMembers`, each with its own join tree. */
export function planSubQueries(
  model: DataModel,
  rowMembers: readonly Member[],
  rowFilters: readonly Filter[],
  filterResolved: ReadonlyMap<string, Resolved>,
  caller: Caller,
): SubQueryDimension[] {
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
    const inTree = (filter: Filter): boolean =>
      filterMembers(filter).every((path) => {
        const filtered = filterResolved.get(path)?.member;
        if (!filtered || filtered.path === member.path) return false;
        const reached = new Set<string>();
        memberCubes(model, filtered, reached);
        return [...reached].every((name) => cubes.has(name) || tree.joins.some((join) => join.to === name));
      });
    const filters = member.propagateFiltersToSubQuery ? rowFilters.filter(inTree) : [];
    planned.set(member.path, { dimension: member, tree, filters, policy });
  }
  return [...planned.values()];
}
