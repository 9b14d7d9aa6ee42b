import { QueryError } from '../errors.js';
import type { DataModel, Join } from '../model.js';

export interface JoinTree {
  readonly root: string;
  /** In SQL order: each join's `from` is already in the tree when it is joined. */
  readonly joins: readonly Join[];
}

/** Shortest directed paths from `root` (joins are followed only from the cube that declares them, as in Cube). */
function shortestPaths(model: DataModel, root: string): Map<string, Join | null> {
  const parent = new Map<string, Join | null>([[root, null]]);
  const queue = [root];
  for (let index = 0; index < queue.length; index++) {
    const from = model.cubes.get(queue[index] ?? '');
    for (const join of from?.joins.values() ?? []) {
      if (parent.has(join.to)) continue;
      parent.set(join.to, join);
      queue.push(join.to);
    }
  }
  return parent;
}

function pathTo(parent: Map<string, Join | null>, cube: string): Join[] | undefined {
  if (!parent.has(cube)) return undefined;
  const path: Join[] = [];
  for (let step = parent.get(cube); step; step = parent.get(step.from)) path.unshift(step);
  return path;
}

function treeFrom(model: DataModel, root: string, cubes: readonly string[], required: readonly Join[]): Join[] | undefined {
  const joins: Join[] = [];
  const inTree = new Set([root]);
  const addPath = (path: readonly Join[]): void => {
    for (const join of path) {
      if (inTree.has(join.to)) continue;
      joins.push(join);
      inTree.add(join.to);
    }
  };
  addPath(required);
  const parent = shortestPaths(model, root);
  for (const cube of cubes) {
    if (inTree.has(cube)) continue;
    const path = pathTo(parent, cube);
    if (!path) return undefined;
    addPath(path);
  }
  return joins;
}

/**
 * The join tree for a query: required paths (view join paths, join hints) first, every other cube by
 * the shortest path; without required paths each cube is tried as root and the smallest tree wins.
 */
export function buildJoinTree(model: DataModel, cubes: readonly string[], requiredPaths: ReadonlyArray<readonly string[]>): JoinTree {
  const required: Join[] = [];
  for (const path of requiredPaths) {
    for (let index = 0; index + 1 < path.length; index++) {
      const from = path[index] ?? '';
      const to = path[index + 1] ?? '';
      const join = model.cubes.get(from)?.joins.get(to);
      if (!join) throw new QueryError(`Can't find join path to join '${from}', '${to}'`);
      required.push(join);
    }
  }
  const fixedRoot = requiredPaths.find((path) => path.length > 0)?.[0];
  const roots = fixedRoot ? [fixedRoot] : cubes;
  let best: JoinTree | undefined;
  for (const root of roots) {
    const joins = treeFrom(model, root, cubes, required);
    if (joins && (!best || joins.length < best.joins.length)) best = { root, joins };
  }
  if (!best) throw new QueryError(`Can't find join path to join ${cubes.map((cube) => `'${cube}'`).join(', ')}`);
  return best;
}

/**
 * Whether rows of `cube` are repeated by the tree: some one-to-many edge is walked from its "one"
 * side when going outwards from `cube` (Cube's findMultiplicationFactorFor).
 */
export function isMultiplied(cube: string, joins: readonly Join[]): boolean {
  const visited = new Set<string>();
  const walk = (current: string): boolean => {
    if (visited.has(current)) return false;
    visited.add(current);
    const next = joins.filter((join) => join.from === current || join.to === current);
    const other = (join: Join): string => (join.from === current ? join.to : join.from);
    const fansOut = (join: Join): boolean =>
      (join.from === current && join.relationship === 'one_to_many') || (join.to === current && join.relationship === 'many_to_one');
    if (next.some((join) => fansOut(join) && !visited.has(other(join)))) return true;
    return next.some((join) => walk(other(join)));
  };
  return walk(cube);
}
