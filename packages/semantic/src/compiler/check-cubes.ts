import type { Cube, Member, SqlTemplate } from '../model.js';
import type { Diagnostics } from './diagnostics.js';
import { templateRefs } from './template.js';

export const GRANULARITIES = ['second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'] as const;

export function memberTemplates(m: Member): SqlTemplate[] {
  const out: SqlTemplate[] = [];
  if (m.kind !== 'segment' && m.sql) out.push(m.sql);
  if (m.kind === 'segment') out.push(m.sql);
  if (m.kind === 'measure') out.push(...m.filters);
  if (m.kind === 'dimension' && m.latitude) out.push(m.latitude);
  if (m.kind === 'dimension' && m.longitude) out.push(m.longitude);
  if (m.kind === 'dimension' && m.case) {
    for (const w of m.case.when) {
      out.push(w.sql);
      if (typeof w.label !== 'string') out.push(w.label);
    }
    if (m.case.else !== undefined && typeof m.case.else !== 'string') out.push(m.case.else);
  }
  return out;
}

function memberRefs(m: Member): string[] {
  return memberTemplates(m)
    .flatMap(templateRefs)
    .flatMap((r) => (r.kind === 'member' ? [`${r.cube}.${r.member}`] : []));
}

/** Rules that need the whole model: what may reference what, and no member defined through itself. */
export function checkCubes(cubes: ReadonlyMap<string, Cube>, diagnostics: Diagnostics): void {
  const all = new Map<string, Member>();
  for (const cube of cubes.values()) {
    for (const m of [...cube.measures.values(), ...cube.dimensions.values(), ...cube.segments.values()]) all.set(m.path, m);
  }
  for (const m of all.values()) {
    const cube = cubes.get(m.cube);
    for (const ref of memberRefs(m)) {
      const target = all.get(ref);
      if (target?.kind !== 'measure') continue;
      // A sub_query dimension is computed from other cubes' measures, in its own subquery.
      if (m.kind === 'dimension' && m.subQuery) continue;
      if (m.kind !== 'measure') {
        diagnostics.error(
          cube?.fileName ?? '',
          `${m.kind === 'dimension' ? 'Dimension' : 'Segment'} ${m.path} references measure ${ref}; only measures of type number can reference measures`,
        );
      } else if (m.type !== 'number' && m.type !== 'string' && m.type !== 'time' && m.type !== 'boolean') {
        diagnostics.error(
          cube?.fileName ?? '',
          `Measure ${m.path} of type ${m.type} references measure ${ref}; only measures of type number can reference measures`,
        );
      }
    }
  }
  // Depth-first search with three colours finds every cycle; each is reported once from its first member.
  const state = new Map<string, 'active' | 'done'>();
  const stack: string[] = [];
  const visit = (path: string): void => {
    state.set(path, 'active');
    stack.push(path);
    const m = all.get(path);
    for (const ref of m ? memberRefs(m) : []) {
      const s = state.get(ref);
      if (s === 'active') {
        const cycle = [...stack.slice(stack.indexOf(ref)), ref];
        const owner = all.get(ref);
        diagnostics.error(cubes.get(owner?.cube ?? '')?.fileName ?? '', `Circular reference: ${cycle.join(' -> ')}`);
      } else if (s === undefined && all.has(ref)) {
        visit(ref);
      }
    }
    stack.pop();
    state.set(path, 'done');
  };
  for (const path of all.keys()) if (!state.has(path)) visit(path);
}
