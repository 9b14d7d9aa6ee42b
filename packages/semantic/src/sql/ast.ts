import { createRequire } from 'node:module';
import type { Parser } from 'node-sql-parser';
import { notSupported, syntaxError } from './errors.js';

/**
 * A node of node-sql-parser's AST. Its published types are looser than what it produces, so the
 * translation reads nodes through this shape and checks each field it uses.
 */
export interface Node {
  type?: string;
  [key: string]: unknown;
}

/**
 * Built on the first translation: the parser (every dialect's grammar, a CommonJS package
 * required synchronously) costs some 25 MiB and 150 ms that a server answering no SQL never needs.
 */
let parser: Parser | undefined;
function sqlParser(): Parser {
  return (parser ??= new (createRequire(import.meta.url)('node-sql-parser') as typeof import('node-sql-parser')).Parser());
}

/** The one SELECT statement of `sql`, parsed as PostgreSQL (the dialect of Cube's SQL API). */
export function parseSelect(sql: string): Node {
  let ast: unknown;
  try {
    ast = sqlParser().astify(sql, { database: 'PostgresQL' });
  } catch (error) {
    throw syntaxError(`The SQL could not be parsed: ${error instanceof Error ? error.message : String(error)}`);
  }
  const statements = (Array.isArray(ast) ? ast : [ast]) as Node[];
  if (statements.length !== 1) throw notSupported(`Exactly one statement per request is supported, got ${statements.length}`);
  const statement = statements[0]!;
  if (statement.type === undefined) throw syntaxError('The SQL holds no statement');
  if (statement.type !== 'select') {
    throw notSupported(`${String(statement.type).toUpperCase()} statements are not supported: the SQL API answers SELECT only`);
  }
  return statement;
}

export const isNode = (value: unknown): value is Node => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * An identifier as PostgreSQL reads it: unquoted names fold to lower case, quoted ones are exact.
 * The parser gives a column either as a bare string or as `{expr: {type, value}}`.
 */
export function identifier(raw: unknown): string {
  if (typeof raw === 'string') return raw;
  const expr = isNode(raw) && isNode(raw.expr) ? raw.expr : isNode(raw) ? raw : undefined;
  if (!expr || typeof expr.value !== 'string') throw syntaxError('An identifier could not be read');
  return expr.type === 'double_quote_string' || expr.type === 'backticks_quote_string' ? expr.value : expr.value.toLowerCase();
}

/** A function's name, upper-cased (`MEASURE`, `DATE_TRUNC`). */
export function functionName(node: Node): string {
  const name = node.name;
  if (typeof name === 'string') return name.toUpperCase();
  const parts = isNode(name) && Array.isArray(name.name) ? (name.name as Node[]) : [];
  return parts
    .map((p) => String(p.value))
    .join('.')
    .toUpperCase();
}

/** A function's argument list. */
export function functionArgs(node: Node): Node[] {
  const args = node.args;
  if (isNode(args) && Array.isArray(args.value)) return args.value as Node[];
  return [];
}

const STRING_TYPES = new Set(['single_quote_string', 'string', 'natural_string', 'regex_string']);
const DATE_TYPES = new Set(['date', 'timestamp', 'time', 'datetime']);
/** Casts that leave a literal's text as it is: to a date or time, or to text. */
const TEXT_CASTS = /^(date|timestamp|timestamptz|timestamp with(out)? time zone|text|varchar|character varying)$/i;

/**
 * A literal as a Cube filter value (strings, as Cube's own SQL API sends them), or undefined for a
 * node that is not a literal. `TIMESTAMP '...'`, `DATE '...'` and `CAST('...' AS TIMESTAMP)` are
 * the date strings they hold, and `'x'::text` is `x`.
 */
export function literalValue(node: Node): string | undefined {
  if (node.type === 'number' || node.type === 'bigint') return String(node.value);
  if (node.type === 'bool' || node.type === 'boolean') return String(node.value);
  if ((node.type && STRING_TYPES.has(node.type)) || (node.type && DATE_TYPES.has(node.type))) {
    return typeof node.value === 'string' ? node.value : undefined;
  }
  if (node.type === 'cast' && isNode(node.expr) && Array.isArray(node.target)) {
    const target = (node.target as Node[])[0];
    if (target && typeof target.dataType === 'string' && TEXT_CASTS.test(target.dataType)) return literalValue(node.expr);
  }
  return undefined;
}

/** A short name for a node in an error message. */
export function describe(node: Node): string {
  if (node.type === 'function' || node.type === 'aggr_func') return `function ${functionName(node)}`;
  if (node.type === 'binary_expr') return `operator ${String(node.operator)}`;
  if (node.type === 'column_ref') return `column ${identifier(node.column)}`;
  if (node.type === 'var') return 'query parameters';
  return `expression of type ${String(node.type)}`;
}
