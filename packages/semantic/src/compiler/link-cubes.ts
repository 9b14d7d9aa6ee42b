import type { CaseWhen, Cube, Dimension, Join, Measure, Member, Segment, SqlTemplate } from '../model.js';
import type { Diagnostics } from './diagnostics.js';
import type { DraftCube, DraftMember } from './draft.js';
import { readHierarchies, type GroupingOwner } from './hierarchies.js';
import { readPolicies } from './policies.js';
import { resolveSqlTable, resolveTemplate, type NameSpace, type RawTemplate } from './template.js';
import { titleize } from './titles.js';

/** `member`, `CUBE.member` and `other_cube.member` to `cube.member` paths; a name that does not exist is an error. */
function resolveDrillMembers(
  written: readonly string[],
  owner: string,
  measurePath: string,
  names: NameSpace,
  problem: (message: string) => void,
): string[] {
  return written.flatMap((name) => {
    const parts = name.split('.');
    const [cube, member] = parts.length === 1 ? [owner, parts[0] ?? ''] : [parts[0] === 'CUBE' ? owner : (parts[0] ?? ''), parts[1] ?? ''];
    if (parts.length > 2 || !names.hasMember(cube, member)) {
      problem(`drill_members of ${measurePath} names ${name}, which is not a member of ${parts.length === 1 ? owner : cube}`);
      return [];
    }
    return [`${cube}.${member}`];
  });
}

/** Turns drafts into cubes, resolving every `{reference}` against the whole model. */
export function linkCubes(drafts: readonly DraftCube[], names: NameSpace, diagnostics: Diagnostics): Map<string, Cube> {
  const cubes = new Map<string, Cube>();
  for (const draft of drafts) {
    const resolve = (raw: RawTemplate, where: DraftMember['at']): SqlTemplate => {
      const { template, problems } = resolveTemplate(raw, draft.name, names);
      for (const p of problems) diagnostics.error(draft.fileName, p, where);
      return template;
    };
    const cubeTitle = draft.title ?? titleize(draft.name);
    const measures = new Map<string, Measure>();
    const dimensions = new Map<string, Dimension>();
    const segments = new Map<string, Segment>();
    const seen = new Set<string>();
    const primaryKeys: string[] = [];
    for (const m of draft.members) {
      const path = `${draft.name}.${m.name}`;
      if (seen.has(m.name)) {
        diagnostics.error(
          draft.fileName,
          `Duplicate member name ${m.name} in cube ${draft.name}: measures, dimensions and segments share one namespace`,
          m.at,
        );
        continue;
      }
      seen.add(m.name);
      const shortTitle = m.title ?? titleize(m.name);
      const base = {
        cube: draft.name,
        name: m.name,
        path,
        shortTitle,
        title: `${cubeTitle} ${shortTitle}`,
        description: m.description,
        public: m.public,
        meta: m.meta,
      };
      const sql = m.sql ? resolve(m.sql, m.at) : undefined;
      if (m.kind === 'measure') {
        measures.set(m.name, {
          ...base,
          kind: 'measure',
          type: m.type as Measure['type'],
          sql,
          filters: m.filters.map((f) => resolve(f, m.at)),
          format: m.format,
          drillMembers:
            m.drillMembers &&
            resolveDrillMembers(m.drillMembers, draft.name, path, names, (p) => diagnostics.error(draft.fileName, p, m.at)),
          ...(m.rollingWindow ? { rollingWindow: m.rollingWindow } : {}),
        });
      } else if (m.kind === 'dimension') {
        const caseWhen: CaseWhen | undefined = m.caseWhen && {
          when: m.caseWhen.when.map((w) => ({
            sql: resolve(w.sql, m.at),
            label: typeof w.label === 'string' ? w.label : resolve(w.label, m.at),
          })),
          ...(m.caseWhen.else !== undefined
            ? { else: typeof m.caseWhen.else === 'string' ? m.caseWhen.else : resolve(m.caseWhen.else, m.at) }
            : {}),
        };
        if (m.primaryKey) primaryKeys.push(m.name);
        dimensions.set(m.name, {
          ...base,
          kind: 'dimension',
          type: m.type as Dimension['type'],
          sql,
          case: caseWhen,
          primaryKey: m.primaryKey,
          format: m.format,
          ...(m.latitude ? { latitude: resolve(m.latitude, m.at) } : {}),
          ...(m.longitude ? { longitude: resolve(m.longitude, m.at) } : {}),
          ...(m.subQuery ? { subQuery: true } : {}),
          ...(m.propagateFiltersToSubQuery ? { propagateFiltersToSubQuery: true } : {}),
        });
      } else if (sql) {
        segments.set(m.name, { ...base, kind: 'segment', sql });
      }
    }
    if (primaryKeys.length > 1) {
      diagnostics.error(
        draft.fileName,
        `Cube ${draft.name} has several primary keys (${primaryKeys.join(', ')}); use one dimension with primary_key: true, e.g. a concatenation`,
        draft.at,
      );
    }
    const joins = new Map<string, Join>();
    for (const j of draft.joins) {
      if (!names.hasCube(j.to)) {
        diagnostics.error(draft.fileName, `Cube ${j.to} doesn't exist (joined from cube ${draft.name})`, j.at);
        continue;
      }
      if (joins.has(j.to)) {
        diagnostics.error(draft.fileName, `Cube ${draft.name} joins ${j.to} twice`, j.at);
        continue;
      }
      if (j.sql) joins.set(j.to, { from: draft.name, to: j.to, relationship: j.relationship, sql: resolve(j.sql, j.at) });
    }
    const accessPolicy = readPolicies(
      draft.accessPolicy,
      draft.name,
      draft.fileName,
      draft.locate(['access_policy']),
      (name) => (measures.get(name) ?? dimensions.get(name) ?? segments.get(name))?.kind,
      diagnostics,
    );
    let sqlTable = draft.sqlTable;
    if (sqlTable !== undefined) {
      const resolved = resolveSqlTable(sqlTable, draft.name, names);
      for (const p of resolved.problems) diagnostics.error(draft.fileName, p, draft.at);
      sqlTable = resolved.sqlTable;
    }
    const grouping: GroupingOwner = {
      name: draft.name,
      kind: 'cube',
      fileName: draft.fileName,
      memberNames: [...seen],
      isDimension: (n) => dimensions.has(n),
    };
    const hierarchies = readHierarchies(draft.hierarchies, grouping, draft.locate(['hierarchies']), diagnostics);
    cubes.set(draft.name, {
      kind: 'cube',
      name: draft.name,
      fileName: draft.fileName,
      title: cubeTitle,
      description: draft.description,
      public: draft.public,
      meta: draft.meta,
      sqlTable,
      sql: draft.sql ? resolve(draft.sql, draft.at) : undefined,
      measures,
      dimensions,
      segments,
      joins,
      primaryKey: primaryKeys[0],
      accessPolicy,
      ...(hierarchies.length > 0 ? { hierarchies } : {}),
      // Filled in once every cube is linked, since a pre-aggregation may name members of joined cubes.
      preAggregations: new Map(),
    });
  }
  return cubes;
}

export function findMember(cubes: ReadonlyMap<string, Cube>, cube: string, name: string): Member | undefined {
  const c = cubes.get(cube);
  return c?.measures.get(name) ?? c?.dimensions.get(name) ?? c?.segments.get(name);
}
