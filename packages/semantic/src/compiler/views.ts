import type { Cube, Hierarchy, Member, View, ViewMember } from '../model.js';
import type { Diagnostics } from './diagnostics.js';
import { isObj, isPublic, NAME, pick, str } from './fields.js';
import { readFolders, readHierarchies, type GroupingOwner } from './hierarchies.js';
import { readPolicies } from './policies.js';
import { titleize } from './titles.js';
import type { RawEntry } from './yaml-files.js';

/** Reads a view: every included cube member becomes a view member bound to its join path. */
export function readView(entry: RawEntry, cubes: ReadonlyMap<string, Cube>, diagnostics: Diagnostics): View | undefined {
  const v = entry.value;
  const file = entry.fileName;
  const name = str(v['name']);
  if (!name || !NAME.test(name)) {
    diagnostics.error(
      file,
      name ? `View name '${name}' must be letters, digits and underscores` : 'A view needs a `name`',
      entry.locate([]),
    );
    return undefined;
  }
  const members = new Map<string, ViewMember>();
  const viewTitle = str(v['title']) ?? titleize(name);
  const list = Array.isArray(v['cubes']) ? (v['cubes'] as unknown[]) : [];
  if (list.length === 0) diagnostics.error(file, `View ${name} needs a \`cubes\` list with join_path entries`, entry.locate([]));
  let root: string | undefined;
  // `cube.member` → view member name, to map the levels of included cube hierarchies onto view members.
  const exposedAs = new Map<string, string>();
  const includedHierarchies: Array<{ cube: string; hierarchy: Hierarchy; name: string }> = [];
  list.forEach((item, index) => {
    const at = entry.locate(['cubes', index]);
    if (!isObj(item)) return;
    const joinPath = (str(pick(item, 'join_path')) ?? '')
      .split('.')
      .map((s) => s.trim())
      .filter(Boolean);
    const cubeName = joinPath[joinPath.length - 1];
    if (!cubeName) {
      diagnostics.error(file, `Each cube entry of view ${name} needs a \`join_path\``, at);
      return;
    }
    const missing = joinPath.find((c) => !cubes.has(c));
    if (missing) {
      diagnostics.error(file, `Cube ${missing} doesn't exist (join_path ${joinPath.join('.')} of view ${name})`, at);
      return;
    }
    for (let i = 0; i + 1 < joinPath.length; i++) {
      const from = joinPath[i] ?? '';
      const to = joinPath[i + 1] ?? '';
      if (!cubes.get(from)?.joins.has(to))
        diagnostics.error(
          file,
          `join_path ${joinPath.join('.')} of view ${name} needs a join from ${from} to ${to}, and ${from} has none`,
          at,
        );
    }
    root ??= joinPath[0];
    if (joinPath[0] !== root)
      diagnostics.error(file, `All join_paths of view ${name} must start at the same cube (${root}), not ${joinPath[0]}`, at);
    const cube = cubes.get(cubeName);
    if (!cube) return;
    const all: Member[] = [...cube.measures.values(), ...cube.dimensions.values(), ...cube.segments.values()];
    const byName = new Map(all.map((m) => [m.name, m]));
    const prefix = item['prefix'] === true ? `${str(item['alias']) ?? cubeName}_` : '';
    if (item['includes'] !== '*' && !Array.isArray(item['includes']))
      diagnostics.error(file, `includes of ${cubeName} in view ${name} must be "*" or a list of member names`, at);
    if (item['excludes'] !== undefined && !Array.isArray(item['excludes']))
      diagnostics.error(file, `excludes of ${cubeName} in view ${name} must be a list of member names`, at);
    const excludes = new Set(Array.isArray(item['excludes']) ? (item['excludes'] as unknown[]).map((x) => str(x) ?? '') : []);
    const cubeHierarchies = new Map((cube.hierarchies ?? []).map((h) => [h.name, h]));
    const includes: Array<{ member: string; alias?: string; title?: string }> =
      item['includes'] === '*'
        ? [...all.map((m) => ({ member: m.name })), ...[...cubeHierarchies.keys()].map((h) => ({ member: h }))]
        : (Array.isArray(item['includes']) ? (item['includes'] as unknown[]) : []).map((x) =>
            isObj(x) ? { member: str(x['name']) ?? '', alias: str(x['alias']), title: str(x['title']) } : { member: str(x) ?? '' },
          );
    // As in Cube, naming a hierarchy includes its levels too (after the members named, unless excluded).
    if (item['includes'] !== '*') {
      const named = new Set(includes.map((inc) => inc.member));
      for (const inc of [...includes]) {
        for (const level of cubeHierarchies.get(inc.member)?.levels ?? []) {
          if (!named.has(level)) includes.push({ member: level });
          named.add(level);
        }
      }
    }
    for (const inc of includes) {
      if (excludes.has(inc.member)) continue;
      const target = byName.get(inc.member);
      const hierarchy = target ? undefined : cubeHierarchies.get(inc.member);
      if (hierarchy) {
        includedHierarchies.push({ cube: cubeName, hierarchy, name: inc.alias ?? `${prefix}${inc.member}` });
        continue;
      }
      if (!target) {
        diagnostics.error(file, `View ${name} includes ${cubeName}.${inc.member}, which does not exist`, at);
        continue;
      }
      const memberName = inc.alias ?? `${prefix}${inc.member}`;
      if (members.has(memberName)) {
        diagnostics.error(file, `View ${name} exposes ${memberName} twice; use prefix: true or an alias`, at);
        continue;
      }
      exposedAs.set(target.path, memberName);
      const shortTitle = inc.title ?? (inc.alias || prefix ? titleize(memberName) : target.shortTitle);
      members.set(memberName, {
        view: name,
        name: memberName,
        path: `${name}.${memberName}`,
        kind: target.kind,
        target,
        joinPath,
        title: `${viewTitle} ${shortTitle}`,
        shortTitle,
        description: target.description,
        // As in Cube, which copies neither `public` nor `primary_key` into a view: a hidden cube member is shown through the view.
        public: true,
      });
    }
  });
  const accessPolicy = readPolicies(
    pick(v, 'access_policy'),
    name,
    file,
    entry.locate(['access_policy']),
    (memberName) => members.get(memberName)?.kind,
    diagnostics,
  );
  const grouping: GroupingOwner = {
    name,
    kind: 'view',
    fileName: file,
    memberNames: [...members.keys()],
    isDimension: (n) => members.get(n)?.kind === 'dimension',
  };
  const hierarchies = [
    ...readHierarchies(v['hierarchies'], grouping, entry.locate(['hierarchies']), diagnostics),
    // As in Cube, an included hierarchy keeps only the levels the view exposes, and vanishes without any.
    ...includedHierarchies.flatMap(({ cube, hierarchy, name: hierarchyName }): Hierarchy[] => {
      const levels = hierarchy.levels.flatMap((level) => {
        const exposed = exposedAs.get(`${cube}.${level}`);
        return exposed === undefined ? [] : [exposed];
      });
      return levels.length === 0 ? [] : [{ ...hierarchy, name: hierarchyName, levels, aliasMember: `${cube}.${hierarchy.name}` }];
    }),
  ];
  const folders = readFolders(v['folders'], grouping, entry.locate(['folders']), diagnostics);
  return {
    kind: 'view',
    name,
    fileName: file,
    title: viewTitle,
    description: str(v['description']),
    public: isPublic(v),
    meta: v['meta'],
    members,
    accessPolicy,
    ...(hierarchies.length > 0 ? { hierarchies } : {}),
    ...(folders.length > 0 ? { folders } : {}),
  };
}
