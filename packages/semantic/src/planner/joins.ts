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
  for (let i = 0; i < queue.length; i++) {
    const from = model.cubes.get(queue[i] ?? '');
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
  for (let j = parent.get(cube); j; j = parent.get(j.from)) path.unshift(j);
  return path;
}

function treeFrom(model: DataModel, root: string, cubes: readonly string[], required: readonly Join[]): Join[] | undefined {
  const joins: Join[] = [];
  const inTree = new Set([root]);
  const addPath = (path: readonly Join[]): void => {
    for (const j of path) {
      if (inTree.has(j.to)) continue;
      joins.push(j);
      inTree.add(j.to);
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
    for (let i = 0; i + 1 < path.length; i++) {
      const from = path[i] ?? '';
      const to = path[i + 1] ?? '';
      const join = model.cubes.get(from)?.joins.get(to);
      if (!join) throw new QueryError(`Can't find join path to join '${from}', '${to}'`);
      required.push(join);
    }
  }
  const fixedRoot = requiredPaths.find((p) => p.length > 0)?.[0];
  const roots = fixedRoot ? [fixedRoot] : cubes;
  let best: JoinTree | undefined;
  for (const root of roots) {
    const joins = treeFrom(model, root, cubes, required);
    if (joins && (!best || joins.length < best.joins.length)) best = { root, joins };
  }
  if (!best) throw new QueryError(`Can't find join path to join ${cubes.map((c) => `'${c}'`).join(', ')}`);
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
    const next = joins.filter((j) => j.from === current || j.to === current);
    const other = (j: Join): string => (j.from === current ? j.to : j.from);
    const fansOut = (j: Join): boolean =>
      (j.from === current && j.relationship === 'one_to_many') || (j.to === current && j.relationship === 'many_to_one');
    if (next.some((j) => fansOut(j) && !visited.has(other(j)))) return true;
    return next.some((j) => walk(other(j)));
  };
  return walk(cube);
}
