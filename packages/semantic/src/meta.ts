import type { Caller, Cube, DataModel, Folder, Member, View } from './model.js';
import { drillMembersOf, measureType } from './planner/annotation.js';
import { EVERYONE } from './planner/policy.js';
import { resolveMember } from './planner/resolve.js';

export interface MetaMember {
  name: string;
  title: string;
  shortTitle: string;
  type: string;
  description?: string;
  format?: string;
  aggType?: string;
  /** Cube marks rolling-window and running-total measures as cumulative. */
  cumulative?: boolean;
  cumulativeTotal?: boolean;
  primaryKey?: boolean;
  isVisible: boolean;
  public: boolean;
  meta?: unknown;
  drillMembers?: string[];
  drillMembersGrouped?: { measures: string[]; dimensions: string[] };
}

export interface MetaHierarchy {
  name: string;
  title?: string;
  levels: string[];
  public: boolean;
  aliasMember?: string;
}

/** Cube's flat folder: members of nested folders are merged into their top-level folder. */
export interface MetaFolder {
  name: string;
  members: string[];
}

export interface MetaNestedFolder {
  name: string;
  members: Array<string | MetaNestedFolder>;
}

export interface MetaCube {
  name: string;
  title: string;
  type: 'cube' | 'view';
  description?: string;
  public: boolean;
  meta?: unknown;
  measures: MetaMember[];
  dimensions: MetaMember[];
  segments: MetaMember[];
  hierarchies: MetaHierarchy[];
  folders: MetaFolder[];
  nestedFolders: MetaNestedFolder[];
}

/** The `/cubejs-api/v1/meta` body: only what this caller may query. */
export function meta(model: DataModel, caller: Caller = EVERYONE): { cubes: MetaCube[] } {
  const cubes: MetaCube[] = [];
  const owners: Array<Cube | View> = [...model.cubes.values(), ...model.views.values()];
  for (const owner of owners) {
    const names =
      owner.kind === 'view' ? [...owner.members.keys()] : [...owner.measures.keys(), ...owner.dimensions.keys(), ...owner.segments.keys()];
    const entry: MetaCube = {
      name: owner.name,
      title: owner.title,
      type: owner.kind,
      public: true,
      ...(owner.description !== undefined ? { description: owner.description } : {}),
      ...(owner.meta !== undefined ? { meta: owner.meta } : {}),
      measures: [],
      dimensions: [],
      segments: [],
      hierarchies: [],
      folders: [],
      nestedFolders: [],
    };
    for (const name of names) {
      let member: Member;
      let title: string;
      let shortTitle: string;
      try {
        const r = resolveMember(model, `${owner.name}.${name}`, caller);
        // As Cube's meta: a member its API hides is not listed (a query can still filter on it).
        if (!r.visible) continue;
        member = r.member;
        title = r.title;
        shortTitle = r.shortTitle;
      } catch {
        continue;
      }
      const base: MetaMember = {
        name: `${owner.name}.${name}`,
        title,
        shortTitle,
        type: 'boolean',
        isVisible: true,
        public: true,
        ...(member.description !== undefined ? { description: member.description } : {}),
        ...(member.meta !== undefined ? { meta: member.meta } : {}),
      };
      if (member.kind === 'measure')
        entry.measures.push({
          ...base,
          type: measureType(member),
          aggType: member.rollingWindow?.kind === 'running_total' ? 'runningTotal' : member.type,
          cumulative: member.rollingWindow !== undefined,
          cumulativeTotal: member.rollingWindow !== undefined,
          ...(member.format ? { format: member.format } : {}),
          ...(member.drillMembers ? drillMembersOf(model, owner, member) : {}),
        });
      else if (member.kind === 'dimension')
        entry.dimensions.push({
          ...base,
          type: member.type,
          ...(member.primaryKey ? { primaryKey: true } : {}),
          ...(member.format ? { format: member.format } : {}),
        });
      else entry.segments.push(base);
    }
    const visible = new Set([...entry.measures, ...entry.dimensions, ...entry.segments].map((m) => m.name));
    Object.assign(entry, groupings(owner, visible));
    if (entry.measures.length + entry.dimensions.length + entry.segments.length > 0) cubes.push(entry);
  }
  return { cubes };
}

/** Hierarchies and folders as Cube's meta shows them, naming only members this caller can see. */
function groupings(owner: Cube | View, visible: ReadonlySet<string>): Pick<MetaCube, 'hierarchies' | 'folders' | 'nestedFolders'> {
  const path = (name: string): string => `${owner.name}.${name}`;
  const hierarchies = (owner.hierarchies ?? []).flatMap((h): MetaHierarchy[] => {
    const levels = h.levels.map(path).filter((l) => visible.has(l));
    if (levels.length === 0) return [];
    return [
      {
        name: path(h.name),
        ...(h.title !== undefined ? { title: h.title } : {}),
        levels,
        public: h.public,
        ...(h.aliasMember !== undefined ? { aliasMember: h.aliasMember } : {}),
      },
    ];
  });
  const nested = (folder: Folder): MetaNestedFolder => ({
    name: folder.name,
    members: folder.members.flatMap((m): Array<string | MetaNestedFolder> => {
      if (typeof m !== 'string') return [nested(m)];
      return visible.has(path(m)) ? [path(m)] : [];
    }),
  });
  const flatten = (folder: MetaNestedFolder): string[] => folder.members.flatMap((m) => (typeof m === 'string' ? [m] : flatten(m)));
  // Cube has folders on views only.
  const nestedFolders = owner.kind === 'view' ? (owner.folders ?? []).map(nested) : [];
  return {
    hierarchies,
    folders: nestedFolders.map((f) => ({ name: f.name, members: [...new Set(flatten(f))] })),
    nestedFolders,
  };
}
