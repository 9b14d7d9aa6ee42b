import type { Caller, Cube, DataModel, Member, View } from './model.js';
import { measureType } from './planner/annotation.js';
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
  primaryKey?: boolean;
  isVisible: boolean;
  public: boolean;
  meta?: unknown;
  drillMembers?: string[];
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
}

/** A view lists the drill members it includes, under its own names; the others cannot be queried through it. */
function drillMembersOf(owner: Cube | View, paths: readonly string[]): string[] {
  if (owner.kind === 'cube') return [...paths];
  const byTarget = new Map([...owner.members.values()].map((member) => [member.target.path, member.path]));
  return paths.flatMap((path) => byTarget.get(path) ?? []);
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
    };
    for (const name of names) {
      let member: Member;
      let title: string;
      let shortTitle: string;
      try {
        const r = resolveMember(model, `${owner.name}.${name}`, caller);
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
          aggType: member.type,
          ...(member.format ? { format: member.format } : {}),
          ...(member.drillMembers ? { drillMembers: drillMembersOf(owner, member.drillMembers) } : {}),
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
    if (entry.measures.length + entry.dimensions.length + entry.segments.length > 0) cubes.push(entry);
  }
  return { cubes };
}
