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
export function measureType(m: Measure): string {
  return m.type === 'string' || m.type === 'time' || m.type === 'boolean' ? m.type : 'number';
}

function base(r: Resolved, type: string): MemberAnnotation {
  const m = r.member as Measure | Dimension | Segment;
  return {
    title: r.title,
    shortTitle: r.shortTitle,
    type,
    ...(m.description !== undefined ? { description: m.description } : {}),
    ...('format' in m && m.format !== undefined ? { format: m.format } : {}),
    ...(m.meta !== undefined ? { meta: m.meta } : {}),
  };
}

export function measureAnnotation(r: Resolved<Measure>): MemberAnnotation {
  return { ...base(r, measureType(r.member)), drillMembers: [], drillMembersGrouped: { measures: [], dimensions: [] } };
}

export function dimensionAnnotation(r: Resolved<Dimension>): MemberAnnotation {
  return base(r, r.member.type);
}

export function segmentAnnotation(r: Resolved<Segment>): MemberAnnotation {
  return base(r, 'boolean');
}

export function timeDimensionAnnotation(r: Resolved<Dimension>, granularity: Granularity): MemberAnnotation {
  const title = granularity.charAt(0).toUpperCase() + granularity.slice(1);
  return { ...base(r, 'time'), granularity: { name: granularity, title, interval: `1 ${granularity}`, type: 'built-in' } };
}
