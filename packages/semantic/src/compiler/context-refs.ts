import type { ContextRef, FilterColumn } from '../model.js';

/** A context reference as written, before the model and the compile context are known. */
export type RawContextRef =
  | Exclude<ContextRef, { kind: 'filterParams' | 'constant' }>
  | { readonly kind: 'filterParams'; readonly group: ReadonlyArray<{ path: readonly string[]; column: FilterColumn }> }
  | { readonly kind: 'compileContext'; readonly path: readonly string[] }
  | { readonly kind: 'invalid'; readonly message: string };

const SECURITY_ROOTS = new Set(['SECURITY_CONTEXT', 'securityContext', 'security_context', 'USER_CONTEXT']);
const CONTEXT_ROOTS = new Set([...SECURITY_ROOTS, 'COMPILE_CONTEXT', 'FILTER_PARAMS', 'FILTER_GROUP', 'SQL_UTILS']);

/** Whether the text inside `{...}` starts with a context variable and so must be read by `parseContextRef`. */
export function isContextExpression(inner: string): boolean {
  const root = /^\s*([A-Za-z_][A-Za-z0-9_]*)/.exec(inner)?.[1];
  return root !== undefined && CONTEXT_ROOTS.has(root);
}

/**
 * Reads the text inside `{...}` that starts with a context variable. The forms are Cube's:
 * `SECURITY_CONTEXT.x.filter('col')`, `.requiredFilter('col')`, `.unsafeValue()`, `securityContext.x`,
 * `COMPILE_CONTEXT.x.y`, `FILTER_PARAMS.cube.member.filter('col' | lambda a, b: f"...{a}...")` and
 * `FILTER_GROUP(FILTER_PARAMS..., ...)`. Anything else is an `invalid` reference with a message.
 */
export function parseContextRef(inner: string): RawContextRef {
  const cursor = new Cursor(inner);
  try {
    const ref = readRef(cursor);
    cursor.skipSpace();
    if (!cursor.done()) throw new Error(`unexpected '${cursor.rest().slice(0, 20)}'`);
    return ref;
  } catch (e) {
    return { kind: 'invalid', message: `{${inner.trim()}} cannot be read: ${(e as Error).message}` };
  }
}

function readRef(cursor: Cursor): RawContextRef {
  const root = cursor.name();
  if (root === 'SQL_UTILS') throw new Error('SQL_UTILS is not supported yet');
  if (root === 'FILTER_GROUP') {
    cursor.expect('(');
    const group: Array<{ path: readonly string[]; column: FilterColumn }> = [];
    do {
      if (cursor.name() !== 'FILTER_PARAMS') throw new Error('FILTER_GROUP takes FILTER_PARAMS.cube.member.filter(...) arguments');
      group.push(readFilterParam(cursor));
    } while (cursor.accept(','));
    cursor.expect(')');
    return { kind: 'filterParams', group };
  }
  if (root === 'FILTER_PARAMS') return { kind: 'filterParams', group: [readFilterParam(cursor)] };
  const path: string[] = [];
  while (cursor.accept('.')) path.push(cursor.name());
  if (root === 'COMPILE_CONTEXT') {
    if (path.length === 0) throw new Error('name a value: COMPILE_CONTEXT.securityContext.x');
    return { kind: 'compileContext', path };
  }
  // A security-context path ends in a method call or is read as a value.
  const method = path.length > 1 && cursor.peek() === '(' ? path.pop() : undefined;
  if (path.length === 0) throw new Error('name a value: SECURITY_CONTEXT.x');
  if (method === undefined) return { kind: 'securityValue', path };
  cursor.expect('(');
  if (method === 'unsafeValue') {
    cursor.expect(')');
    return { kind: 'securityValue', path };
  }
  if (method !== 'filter' && method !== 'requiredFilter')
    throw new Error(`unknown method ${method}(): expected filter, requiredFilter or unsafeValue`);
  const column = readColumn(cursor);
  cursor.expect(')');
  return { kind: 'securityFilter', path, column, required: method === 'requiredFilter' };
}

function readFilterParam(cursor: Cursor): { path: readonly string[]; column: FilterColumn } {
  const path: string[] = [];
  while (cursor.accept('.')) path.push(cursor.name());
  const method = path.pop();
  if (path.length !== 2 || method !== 'filter') throw new Error('expected FILTER_PARAMS.cube.member.filter(...)');
  cursor.expect('(');
  const column = readColumn(cursor);
  cursor.expect(')');
  return { path, column };
}

/** `'sql'`, `"sql"`, or `lambda a, b: f"... {a} ... {b}"` whose placeholders become bound parameters. */
function readColumn(cursor: Cursor): FilterColumn {
  cursor.skipSpace();
  if (!cursor.rest().startsWith('lambda')) {
    const literal = cursor.stringLiteral();
    if (literal.formatted) throw new Error('filter() takes a plain string or a lambda');
    return { kind: 'column', sql: literal.text };
  }
  cursor.name();
  const params: string[] = [];
  if (!cursor.accept(':')) {
    do params.push(cursor.name());
    while (cursor.accept(','));
    cursor.expect(':');
  }
  const literal = cursor.stringLiteral();
  const body: Array<string | number> = [];
  let last = 0;
  if (literal.formatted) {
    for (const match of literal.text.matchAll(/\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}/g)) {
      const index = params.indexOf(match[1] ?? '');
      if (index < 0) throw new Error(`{${match[1] ?? ''}} is not a parameter of the lambda`);
      body.push(literal.text.slice(last, match.index), index);
      last = (match.index ?? 0) + match[0].length;
    }
  }
  body.push(literal.text.slice(last));
  return { kind: 'lambda', params, body };
}

class Cursor {
  private position = 0;
  constructor(private readonly text: string) {}

  done(): boolean {
    return this.position >= this.text.length;
  }
  rest(): string {
    return this.text.slice(this.position);
  }
  skipSpace(): void {
    while (/\s/.test(this.text[this.position] ?? '')) this.position++;
  }
  peek(): string | undefined {
    this.skipSpace();
    return this.text[this.position];
  }
  accept(token: string): boolean {
    this.skipSpace();
    if (!this.text.startsWith(token, this.position)) return false;
    this.position += token.length;
    return true;
  }
  expect(token: string): void {
    if (!this.accept(token)) throw new Error(`expected '${token}' at '${this.rest().slice(0, 20)}'`);
  }
  name(): string {
    this.skipSpace();
    const match = /^[A-Za-z_][A-Za-z0-9_]*/.exec(this.rest());
    if (!match) throw new Error(`expected a name at '${this.rest().slice(0, 20)}'`);
    this.position += match[0].length;
    return match[0];
  }
  /** A Python string literal: '...', "...", '''...''' or """...""", optionally f-prefixed. */
  stringLiteral(): { text: string; formatted: boolean } {
    this.skipSpace();
    const formatted = this.text[this.position] === 'f' || this.text[this.position] === 'F';
    if (formatted) this.position++;
    const rest = this.rest();
    const quote = rest.startsWith('"""') ? '"""' : rest.startsWith("'''") ? "'''" : rest[0];
    if (quote !== '"' && quote !== "'" && quote !== '"""' && quote !== "'''")
      throw new Error(`expected a string at '${rest.slice(0, 20)}'`);
    const end = this.text.indexOf(quote, this.position + quote.length);
    if (end < 0) throw new Error('unterminated string');
    const text = this.text.slice(this.position + quote.length, end);
    this.position = end + quote.length;
    return { text, formatted };
  }
}

/** Finds the `}` closing the `{` at `open`, skipping braces inside quotes and nested braces. */
export function closingBrace(text: string, open: number): number {
  let depth = 0;
  let quote: string | undefined;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (text.startsWith(quote, i)) {
        i += quote.length - 1;
        quote = undefined;
      }
      continue;
    }
    if (c === '"' || c === "'") quote = text.startsWith(c.repeat(3), i) ? c.repeat(3) : c;
    if (quote && quote.length === 3) i += 2;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i;
  }
  return -1;
}
