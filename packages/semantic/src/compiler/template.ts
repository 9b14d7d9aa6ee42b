import type { SqlTemplate, TemplateRef } from '../model.js';

/** A template before the model is known: references are still dotted name lists. */
export interface RawTemplate {
  readonly text: string;
  readonly parts: ReadonlyArray<string | readonly string[]>;
}

// `{CUBE}`, `{member}`, `{Other.member}`, and the JavaScript-model spelling `${...}`.
const REFERENCE = /\$?\{\s*([A-Za-z_][A-Za-z0-9_]*(?:\s*\.\s*[A-Za-z_][A-Za-z0-9_]*)*)\s*\}/g;

export function parseTemplate(text: string): RawTemplate {
  const parts: Array<string | readonly string[]> = [];
  let last = 0;
  for (const match of text.matchAll(REFERENCE)) {
    const start = match.index ?? 0;
    parts.push(text.slice(last, start));
    parts.push((match[1] ?? '').split('.').map((s) => s.trim()));
    last = start + match[0].length;
  }
  parts.push(text.slice(last));
  return { text, parts };
}

export interface NameSpace {
  hasCube(name: string): boolean;
  hasMember(cube: string, member: string): boolean;
}

/**
 * Resolves references relative to the cube that owns the SQL. Returns a problem description
 * instead of throwing so the compiler can report every bad reference at once.
 */
export function resolveTemplate(raw: RawTemplate, owner: string, names: NameSpace): { template: SqlTemplate; problems: string[] } {
  const problems: string[] = [];
  const parts: Array<string | TemplateRef> = raw.parts.map((part) => {
    if (typeof part === 'string') return part;
    const ref = resolveRef(part, owner, names);
    if (typeof ref === 'string') {
      problems.push(ref);
      return { kind: 'cube', cube: owner };
    }
    return ref;
  });
  return { template: { text: raw.text, parts }, problems };
}

function resolveRef(names: readonly string[], owner: string, ns: NameSpace): TemplateRef | string {
  const [first = '', second, third] = names;
  const shown = `{${names.join('.')}}`;
  if (third !== undefined) return `${shown} is not a valid reference: expected {member}, {Cube} or {Cube.member}`;
  const cube = first === 'CUBE' || first === 'TABLE' ? owner : first;
  if (second === undefined) {
    if (first === 'CUBE' || first === 'TABLE') return { kind: 'cube', cube: owner };
    if (ns.hasMember(owner, first)) return { kind: 'member', cube: owner, member: first };
    if (ns.hasCube(first)) return { kind: 'cube', cube: first };
    return `${shown} cannot be resolved: cube ${owner} has no member ${first} and no cube is named ${first}`;
  }
  if (!ns.hasCube(cube)) return `Cube ${cube} doesn't exist (referenced as ${shown} in cube ${owner})`;
  if (!ns.hasMember(cube, second)) return `${shown} cannot be resolved: cube ${cube} has no member ${second}`;
  return { kind: 'member', cube, member: second };
}

export function templateRefs(template: SqlTemplate): TemplateRef[] {
  return template.parts.filter((p): p is TemplateRef => typeof p !== 'string');
}
