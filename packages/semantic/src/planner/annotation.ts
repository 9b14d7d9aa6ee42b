import type { Dimension, Measure, Segment } from '../model.js';
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

export function measureAnnotation(resolved: Resolved<Measure>): MemberAnnotation {
  return { ...base(resolved, measureType(resolved.member)), drillMembers: [], drillMembersGrouped: { measures: [], dimensions: [] } };
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
