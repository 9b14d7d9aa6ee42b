import type { ContextRef, SqlTemplate, TemplateRef } from '../model.js';
import { closingBrace, isContextExpression, parseContextRef, type RawContextRef } from './context-refs.js';

/** A template before the model is known: references are still dotted name lists or unresolved context references. */
export interface RawTemplate {
  readonly text: string;
  readonly parts: ReadonlyArray<string | readonly string[] | RawContextRef>;
}

// `{CUBE}`, `{member}`, `{Other.member}`, and the JavaScript-model spelling `${...}`.
const MEMBER_REFERENCE = /^\s*([A-Za-z_][A-Za-z0-9_]*(?:\s*\.\s*[A-Za-z_][A-Za-z0-9_]*)*)\s*$/;

/**
 * Splits model SQL into text and references. Braces whose content is neither a member reference nor a
 * context variable (e.g. JSON in a string literal) stay text.
 */
export function parseTemplate(text: string): RawTemplate {
  const parts: Array<string | readonly string[] | RawContextRef> = [];
  let last = 0;
  let open = text.indexOf('{');
  while (open >= 0) {
    const close = closingBrace(text, open);
    const inner = close < 0 ? '' : text.slice(open + 1, close);
    const member = MEMBER_REFERENCE.exec(inner);
    const context = isContextExpression(inner);
    if (close >= 0 && (member || context)) {
      const start = open > 0 && text[open - 1] === '$' ? open - 1 : open;
      parts.push(text.slice(last, start));
      parts.push(context ? parseContextRef(inner) : (member?.[1] ?? '').split('.').map((s) => s.trim()));
      last = close + 1;
      open = text.indexOf('{', last);
    } else {
      open = text.indexOf('{', open + 1);
    }
  }
  parts.push(text.slice(last));
  return { text, parts };
}

export interface NameSpace {
  hasCube(name: string): boolean;
  hasMember(cube: string, member: string): boolean;
  /** `compile(files, { compileContext })`: what `{COMPILE_CONTEXT.x}` reads. */
  readonly compileContext?: unknown;
}

/**
 * Resolves references relative to the cube that owns the SQL. Returns a problem description
 * instead of throwing so the compiler can report every bad reference at once.
 */
export function resolveTemplate(raw: RawTemplate, owner: string, names: NameSpace): { template: SqlTemplate; problems: string[] } {
  const problems: string[] = [];
  const parts: Array<string | TemplateRef> = raw.parts.map((part) => {
    if (typeof part === 'string') return part;
    const ref = isNameList(part) ? resolveRef(part, owner, names) : resolveContextRef(part, owner, names);
    if (typeof ref === 'string') {
      problems.push(ref);
      return { kind: 'cube', cube: owner };
    }
    return ref;
  });
  return { template: { text: raw.text, parts }, problems };
}

function isNameList(part: readonly string[] | RawContextRef): part is readonly string[] {
  return Array.isArray(part);
}

function resolveContextRef(ref: RawContextRef, owner: string, ns: NameSpace): ContextRef | string {
  switch (ref.kind) {
    case 'invalid':
      return `${ref.message} (in cube ${owner})`;
    case 'compileContext': {
      const value = compileContextValue(ns.compileContext, ref.path);
      if (typeof value === 'string') return { kind: 'constant', value: value };
      return value.problem;
    }
    case 'filterParams': {
      const group = [];
      for (const item of ref.group) {
        const [cube = '', member = ''] = item.path;
        const name = cube === 'CUBE' ? owner : cube;
        if (!ns.hasCube(name)) return `FILTER_PARAMS.${item.path.join('.')} in cube ${owner}: cube ${name} doesn't exist`;
        if (!ns.hasMember(name, member))
          return `FILTER_PARAMS.${item.path.join('.')} in cube ${owner}: cube ${name} has no member ${member}`;
        group.push({ cube: name, member, column: item.column });
      }
      return { kind: 'filterParams', group };
    }
    default:
      return ref;
  }
}

/**
 * Looks a value up in the compile context. Only scalars can be written into SQL; the text form is
 * returned (a parameter in `sql`, checked to be identifier-safe in `sql_table`).
 */
export function compileContextValue(context: unknown, path: readonly string[]): string | { problem: string } {
  let value: unknown = context;
  for (const key of path) value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  const shown = `{COMPILE_CONTEXT.${path.join('.')}}`;
  if (value === undefined || value === null) return { problem: `${shown} is not set in the compile context` };
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
    return { problem: `${shown} is not a string, number or boolean` };
  }
  return String(value);
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

/** Member and cube references of a template (context references name no model element to join). */
export function templateRefs(template: SqlTemplate): Array<Extract<TemplateRef, { kind: 'cube' | 'member' }>> {
  return template.parts.filter(
    (p): p is Extract<TemplateRef, { kind: 'cube' | 'member' }> => typeof p !== 'string' && (p.kind === 'cube' || p.kind === 'member'),
  );
}

const IDENTIFIER_SAFE = /^[A-Za-z0-9_]+$/;

/**
 * `sql_table` is written into FROM as it is, so no parameter can go there: `{COMPILE_CONTEXT.x}` is
 * substituted when its value is identifier-safe, and a security-context or filter reference is refused.
 */
export function resolveSqlTable(sqlTable: string, owner: string, ns: NameSpace): { sqlTable: string; problems: string[] } {
  const raw = parseTemplate(sqlTable);
  const problems: string[] = [];
  let out = '';
  for (const part of raw.parts) {
    if (typeof part === 'string') out += part;
    else if (isNameList(part)) out += `{${part.join('.')}}`;
    else if (part.kind === 'invalid') problems.push(`${part.message} (sql_table of cube ${owner})`);
    else if (part.kind !== 'compileContext') {
      problems.push(
        `sql_table of cube ${owner} cannot hold a security-context or FILTER_PARAMS reference (a table name cannot be a parameter); filter in \`sql\` instead, e.g. sql: SELECT * FROM t WHERE {SECURITY_CONTEXT.x.filter('column')}`,
      );
    } else {
      const value = compileContextValue(ns.compileContext, part.path);
      if (typeof value !== 'string') problems.push(`${value.problem} (sql_table of cube ${owner})`);
      else if (!IDENTIFIER_SAFE.test(value)) {
        problems.push(
          `{COMPILE_CONTEXT.${part.path.join('.')}} in sql_table of cube ${owner} is ${JSON.stringify(value)}: only letters, digits and underscores can go into a table name`,
        );
      } else out += value;
    }
  }
  return { sqlTable: out, problems };
}
