import type { DataModel, Join, Measure, Member } from '../model.js';
import { isMultiplied, type JoinTree } from './joins.js';
import { memberCubes, primaryKeyDimension, referencedCubes } from './model-lookup.js';

/**
 * A one-to-many join whose far cube only feeds measures: its rows are aggregated per row of the near
 * cube (by the near cube's primary key) before the join, so the join no longer repeats the near side's
 * rows and no measure needs the distinct-rows plan.
 */
export interface PreAggregatedJoin {
  readonly join: Join;
  /** The far cube, aggregated inside the subquery. */
  readonly cube: string;
  /** Its leaf measures, each computed per near-side row and combined again outside. */
  readonly leaves: readonly Measure[];
}

/** Measures whose per-group value can be computed from per-row partial values. */
const DECOMPOSABLE = new Set(['count', 'sum', 'min', 'max']);

/** How a partial value is combined across the near side's rows of one group. */
export function recombine(measure: Measure, partial: string): string {
  if (measure.type === 'count') return `coalesce(sum(${partial}), 0)`;
  if (measure.type === 'sum') return `sum(${partial})`;
  return `${measure.type}(${partial})`;
}

/**
 * The joins of `tree` that can be pre-aggregated: the far cube is a leaf of the tree, reached by a
 * one-to-many join from a cube with a primary key whose own rows are not repeated elsewhere; nothing but
 * decomposable measures (count, sum, min, max) reads it; the join and the measures read only the two cubes.
 */
export function preAggregatedJoins(
  model: DataModel,
  tree: JoinTree,
  leaves: readonly Measure[],
  rowMembers: readonly Member[],
): PreAggregatedJoin[] {
  const readByRows = new Set<string>();
  for (const member of rowMembers) memberCubes(model, member, readByRows);
  const found: PreAggregatedJoin[] = [];
  for (const join of tree.joins) {
    if (join.relationship !== 'one_to_many') continue;
    const cube = join.to;
    const near = model.cubes.get(join.from);
    if (!near || !primaryKeyDimension(near) || readByRows.has(cube)) continue;
    if (tree.joins.some((other) => other.from === cube)) continue;
    const others = tree.joins.filter((other) => other !== join);
    if (isMultiplied(join.from, others)) continue;
    const joinCubes = new Set<string>();
    referencedCubes(model, join.sql, joinCubes);
    if ([...joinCubes].some((name) => name !== cube && name !== join.from)) continue;
    const farLeaves = leaves.filter((leaf) => leaf.cube === cube);
    const readable = farLeaves.every((leaf) => {
      const reached = new Set<string>();
      memberCubes(model, leaf, reached);
      return DECOMPOSABLE.has(leaf.type) && [...reached].every((name) => name === cube || name === join.from);
    });
    if (farLeaves.length === 0 || !readable) continue;
    found.push({ join, cube, leaves: farLeaves });
  }
  return found;
}
