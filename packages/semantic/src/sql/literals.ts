import { notSupported, SqlTranslationError } from './errors.js';
import { fieldsOf, kindOf, namesOf, type Fields, type PgNode } from './pg-ast.js';
import { PG_TYPES, type PgType } from './types.js';

/**
 * The parameters of one statement: their values (absent when only describing it) and the type each
 * `$n` takes from where it is used, which Describe reports as PostgreSQL infers parameter types.
 */
export class Params {
  readonly types: Array<PgType | undefined> = [];
  constructor(readonly values?: readonly unknown[]) {}

  /** The value of `$n` as filter text, recording the type its use gives it. */
  use(number: number, type: PgType): string | null {
    this.types[number - 1] ??= type;
    if (!this.values) return '';
    if (number > this.values.length) throw new SqlTranslationError('undefined_parameter', `There is no parameter $${number}`);
    const value = this.values[number - 1];
    if (value === null || value === undefined) return null;
    return value instanceof Date ? value.toISOString() : String(value);
  }

  /** `$n` in post-processed SQL: its value as a constant, or NULL when describing. */
  constant(number: number): PgNode {
    this.types[number - 1] ??= PG_TYPES.text;
    const value = this.use(number, PG_TYPES.text);
    if (value === null || !this.values) return { A_Const: { isnull: true } };
    const raw = this.values[number - 1];
    if (typeof raw === 'number' && Number.isInteger(raw)) return { A_Const: { ival: { ival: raw } } };
    if (typeof raw === 'number' || typeof raw === 'bigint') return { A_Const: { fval: { fval: String(raw) } } };
    if (typeof raw === 'boolean') return { A_Const: { boolval: { boolval: raw } } };
    return { A_Const: { sval: { sval: value } } };
  }

  /** Every parameter's type, text for one whose use says nothing (as `unknown` resolves to text). */
  list(): PgType[] {
    return Array.from({ length: this.types.length }, (_, i) => this.types[i] ?? PG_TYPES.text);
  }
}

/** Casts that leave a literal's text as it is (a date, a time, a number, text). */
const TRANSPARENT_CASTS = new Set([
  'date',
  'timestamp',
  'timestamptz',
  'text',
  'varchar',
  'bpchar',
  'numeric',
  'int2',
  'int4',
  'int8',
  'float4',
  'float8',
  'bool',
]);

/** A constant's text, or null for NULL. */
function constantOf(c: Fields): string | null {
  if (c.isnull === true) return null;
  const pick = (key: string, inner: string) => {
    const f = c[key];
    return f && typeof f === 'object' ? (f as Fields)[inner] : undefined;
  };
  if (c.sval) return String(pick('sval', 'sval') ?? '');
  if (c.ival) return String(pick('ival', 'ival') ?? 0);
  if (c.fval) return String(pick('fval', 'fval') ?? '0');
  if (c.boolval) return String(pick('boolval', 'boolval') ?? false);
  if (c.bsval) return String(pick('bsval', 'bsval') ?? '');
  return null;
}

/**
 * A literal as Cube filter text (`TIMESTAMP '...'`, `'x'::date` and `CAST(... AS DATE)` are the text
 * they hold, `-5` is `-5`, `$n` the parameter's value), null for NULL, or undefined for a node that
 * is not a literal. `type` is what a parameter in that place means.
 */
export function literalOf(node: unknown, params: Params, type: PgType): string | null | undefined {
  const kind = kindOf(node);
  const f = kind ? (node as PgNode)[kind]! : {};
  if (kind === 'A_Const') return constantOf(f);
  if (kind === 'ParamRef') return params.use(Number(f.number), type);
  if (kind === 'TypeCast') {
    const names = namesOf((f.typeName as Fields | undefined)?.names);
    if (!TRANSPARENT_CASTS.has(names[names.length - 1] ?? '')) return undefined;
    return literalOf(f.arg, params, type);
  }
  if (kind === 'A_Expr' && f.kind === 'AEXPR_OP' && f.lexpr === undefined && namesOf(f.name)[0] === '-') {
    const inner = literalOf(f.rexpr, params, type);
    if (inner === undefined || inner === null || !/^\d/.test(inner)) return undefined;
    return `-${inner}`;
  }
  return undefined;
}

/** A non-negative integer of LIMIT or OFFSET; undefined for LIMIT ALL. */
export function countOf(node: unknown, params: Params, clause: string): number | undefined {
  if (node === undefined) return undefined;
  const value = literalOf(node, params, PG_TYPES.int8);
  if (value === null) return undefined;
  if (value === undefined) throw notSupported(`${clause} takes a number, not an expression`);
  if (value === '' && !params.values) return undefined;
  if (!/^\d+$/.test(value)) throw new SqlTranslationError('invalid_parameter_value', 'LIMIT and OFFSET take non-negative integers');
  return Number(value);
}

/** `{A_Const: ...}` of an integer, as an ordinal of GROUP BY or ORDER BY. */
export function ordinalOf(node: unknown): number | undefined {
  const c = fieldsOf(node, 'A_Const');
  if (!c || !c.ival) return undefined;
  return Number((c.ival as Fields).ival ?? 0);
}
