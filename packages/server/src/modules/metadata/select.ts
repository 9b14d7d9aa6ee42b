import type { MetaCube } from '@plinth/semantic';
import { badRequest } from '../../http/errors.js';

type MetaNestedFolder = MetaCube['nestedFolders'][number];

/**
 * Keeps what the selectors name of what the caller may see: `*` everything, a cube or view name
 * all of it, `owner.member` that member (an owner named as a whole wins over its members). What
 * the caller's access policies hide is unknown here, as if it did not exist: the 400 for an unknown
 * selector reads the same for a hidden member as for a missing one, so it tells nothing about it.
 */
export function select(cubes: readonly MetaCube[], selectors: readonly string[]): MetaCube[] {
  if (selectors.includes('*')) return [...cubes];
  const byName = new Map(cubes.map((cube) => [cube.name, cube]));
  const whole = new Set<string>();
  const members = new Map<string, Set<string>>();
  for (const selector of selectors) {
    const dot = selector.indexOf('.');
    const owner = dot < 0 ? selector : selector.slice(0, dot);
    const cube = byName.get(owner);
    if (dot < 0) {
      if (!cube) throw badRequest(`selectors: "${selector}" is not a cube or view you may see`);
      whole.add(owner);
      continue;
    }
    if (!cube || !memberNames(cube).has(selector)) throw badRequest(`selectors: "${selector}" is not a member you may see`);
    members.set(owner, (members.get(owner) ?? new Set()).add(selector));
  }
  return cubes.flatMap((cube) => {
    if (whole.has(cube.name)) return [cube];
    const chosen = members.get(cube.name);
    return chosen ? [only(cube, chosen)] : [];
  });
}

function memberNames(cube: MetaCube): Set<string> {
  return new Set([...cube.measures, ...cube.dimensions, ...cube.segments].map((m) => m.name));
}

/** A cube with only the chosen members; its folders and hierarchies keep what remains of them. */
function only(cube: MetaCube, chosen: ReadonlySet<string>): MetaCube {
  const keep = <T extends { name: string }>(list: readonly T[]) => list.filter((m) => chosen.has(m.name));
  const inCube = (name: string) => chosen.has(name) || chosen.has(`${cube.name}.${name}`);
  const nested = (folders: readonly MetaNestedFolder[]): MetaNestedFolder[] =>
    folders.flatMap((folder) => {
      const kept: Array<string | MetaNestedFolder> = folder.members.flatMap((m): Array<string | MetaNestedFolder> =>
        typeof m === 'string' ? (inCube(m) ? [m] : []) : nested([m]),
      );
      return kept.length > 0 ? [{ ...folder, members: kept }] : [];
    });
  return {
    ...cube,
    measures: keep(cube.measures),
    dimensions: keep(cube.dimensions),
    segments: keep(cube.segments),
    hierarchies: cube.hierarchies.filter((h) => h.levels.every(inCube)),
    folders: cube.folders.map((f) => ({ ...f, members: f.members.filter(inCube) })).filter((f) => f.members.length > 0),
    nestedFolders: nested(cube.nestedFolders),
  };
}
