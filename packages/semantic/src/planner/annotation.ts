import type { Cube, DataModel, Dimension, Measure, Segment, View } from '../model.js';
import type { Granularity } from './query.js';
import type { Resolved } from './resolve.js';

export interface MemberAnnotation {
  title: string;
  shortTitle: string;
  type: string;
  description?: string;
  format?: string;
  meta?: unknown;
  drillMembers?: string[];
  drillMembersGrouped?: { measures: string[]; dimensions: string[] };
  granularity?: { name: string; title: string; interval: string; type: 'built-in' };
}

export interface Annotation {
  measures: Record<string, MemberAnnotation>;
  dimensions: Record<string, MemberAnnotation>;
  segments: Record<string, MemberAnnotation>;
  timeDimensions: Record<string, MemberAnnotation>;
}

/** Cube reports every aggregating measure as `number`; only string/time/boolean measures keep their type. */
export function measureType(measure: Measure): string {
  return measure.type === 'string' || measure.type === 'time' || measure.type === 'boolean' ? measure.type : 'number';
}

function base(resolved: Resolved, type: string): MemberAnnotation {
  const member = resolved.member as Measure | Dimension | Segment;
  return {
    title: resolved.title,
    shortTitle: resolved.shortTitle,
    type,
    ...(member.description !== undefined ? { description: member.description } : {}),
    ...('format' in member && member.format !== undefined ? { format: member.format } : {}),
    ...(member.meta !== undefined ? { meta: member.meta } : {}),
  };
}

export function measureAnnotation(model: DataModel, resolved: Resolved<Measure>): MemberAnnotation {
  return { ...base(resolved, measureType(resolved.member)), ...drillMembersOf(model, resolved.owner, resolved.member) };
}

/**
 * A measure's drill members as Cube lists them in /meta and in a load's annotation, where
 * @cubejs-client/core's `drillDown` reads them: named as the cube or view the query addressed
 * names them (a view lists only those it includes), and grouped into measures and dimensions.
 */
export function drillMembersOf(
  model: DataModel,
  owner: Cube | View,
  measure: Measure,
): Required<Pick<MemberAnnotation, 'drillMembers' | 'drillMembersGrouped'>> {
  const drillMembers: string[] = [];
  const drillMembersGrouped = { measures: [] as string[], dimensions: [] as string[] };
  const throughView =
    owner.kind === 'view' ? new Map([...owner.members.values()].map((member) => [member.target.path, member])) : undefined;
  for (const path of measure.drillMembers ?? []) {
    const [cubeName = '', name = ''] = path.split('.');
    const viewMember = throughView?.get(path);
    if (throughView && !viewMember) continue;
    const cube = model.cubes.get(cubeName);
    const kind = viewMember?.kind ?? (cube?.measures.has(name) ? 'measure' : cube?.dimensions.has(name) ? 'dimension' : undefined);
    const listed = viewMember?.path ?? path;
    drillMembers.push(listed);
    if (kind === 'measure') drillMembersGrouped.measures.push(listed);
    else if (kind === 'dimension') drillMembersGrouped.dimensions.push(listed);
  }
  return { drillMembers, drillMembersGrouped };
}

export function dimensionAnnotation(resolved: Resolved<Dimension>): MemberAnnotation {
  return base(resolved, resolved.member.type);
}

export function segmentAnnotation(resolved: Resolved<Segment>): MemberAnnotation {
  return base(resolved, 'boolean');
}

export function timeDimensionAnnotation(resolved: Resolved<Dimension>, granularity: Granularity): MemberAnnotation {
  const title = granularity.charAt(0).toUpperCase() + granularity.slice(1);
  return { ...base(resolved, 'time'), granularity: { name: granularity, title, interval: `1 ${granularity}`, type: 'built-in' } };
}
