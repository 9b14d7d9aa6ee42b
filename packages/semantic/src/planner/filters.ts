import type { Dialect, ParamType } from '../dialects/dialect.js';
import { QueryError } from '../errors.js';
import { boundFrom, boundTo, formatWall, wallToUtc } from './dates.js';
import type { Filter, FilterValue, MemberFilter } from './query.js';
import type { Params } from './render.js';

/** What a filter compares against: the member's value, and for time members the raw UTC column. */
export interface FilterTarget {
  readonly sql: string;
  readonly rawTimeSql?: string;
  readonly type: 'string' | 'number' | 'time' | 'boolean';
  /** For `measureFilter`: the measure's own filter conditions. */
  readonly measureConditions?: string;
}

export interface FilterContext {
  readonly dialect: Dialect;
  readonly params: Params;
  readonly timezone: string;
  target(member: string): FilterTarget;
}

export const ALWAYS_TRUE = '1 = 1';
export const ALWAYS_FALSE = '1 = 0';

export function isMemberFilter(f: Filter): f is MemberFilter {
  return 'member' in f;
}

/** Members a filter tree names, to decide between WHERE and HAVING and to join their cubes. */
export function filterMembers(f: Filter, into: string[] = []): string[] {
  if (isMemberFilter(f)) into.push(f.member);
  else for (const sub of 'and' in f ? f.and : f.or) filterMembers(sub, into);
  return into;
}

export function renderFilter(f: Filter, ctx: FilterContext): string {
  if (!isMemberFilter(f)) {
    const isAnd = 'and' in f;
    const parts = (isAnd ? f.and : f.or).map((x) => `(${renderFilter(x, ctx)})`);
    if (parts.length === 0) return isAnd ? ALWAYS_TRUE : ALWAYS_FALSE;
    return parts.join(isAnd ? ' AND ' : ' OR ');
  }
  return renderCondition(f, ctx.target(f.member), ctx);
}

function paramType(t: FilterTarget['type']): ParamType {
  return t === 'time' ? 'timestamp' : t;
}

function utcParam(ctx: FilterContext, wall: number): string {
  return ctx.dialect.castParam(ctx.params.add(formatWall(wallToUtc(wall, ctx.timezone))), 'timestamp');
}

function escapeLike(v: string): string {
  return v.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function text(v: FilterValue): string {
  return typeof v === 'string' ? v : String(v);
}

const DATE_OPERATORS: ReadonlySet<string> = new Set([
  'inDateRange',
  'notInDateRange',
  'beforeDate',
  'beforeOrOnDate',
  'afterDate',
  'afterOrOnDate',
]);
const COMPARISONS: ReadonlySet<string> = new Set(['gt', 'gte', 'lt', 'lte']);

function renderCondition(f: MemberFilter, t: FilterTarget, ctx: FilterContext): string {
  const all = f.values ?? [];
  const values = all.filter((v): v is Exclude<FilterValue, null> => v !== null);
  const hasNull = values.length < all.length;
  // Date operators and comparisons of time compare the raw UTC column; reading the local value (t.sql) would
  // bind the query's zone as a parameter the SQL never uses, which both warehouses refuse.
  const col =
    t.rawTimeSql !== undefined && (DATE_OPERATORS.has(f.operator) || (t.type === 'time' && COMPARISONS.has(f.operator)))
      ? t.rawTimeSql
      : t.sql;
  const cast = (v: FilterValue): string => {
    const p = ctx.params.add(text(v));
    return t.type === 'string' ? p : ctx.dialect.castParam(p, paramType(t.type));
  };
  const first = (): string => {
    const v = values[0];
    if (v === undefined) throw new QueryError(`Filter on ${f.member} with operator ${f.operator} needs a value`);
    return cast(v);
  };
  const orNull = (add: boolean): string => (add ? ` OR ${col} IS NULL` : '');
  const like = (not: boolean, pre: string, post: string): string => {
    if (values.length === 0) return hasNull ? (not ? `${col} IS NOT NULL` : `${col} IS NULL`) : ALWAYS_TRUE;
    const parts = values.map((v) =>
      ctx.dialect.ilike(col, `${pre}${ctx.dialect.castParam(ctx.params.add(escapeLike(text(v))), 'string')}${post}`, not),
    );
    return `${parts.join(not ? ' AND ' : ' OR ')}${orNull(not ? !hasNull : hasNull)}`;
  };
  const timeCol = t.rawTimeSql ?? col;
  const dateValue = (i: number): string => {
    const v = values[i];
    if (typeof v !== 'string') throw new QueryError(`Filter on ${f.member} with operator ${f.operator} needs a date as value ${i + 1}`);
    return v;
  };
  switch (f.operator) {
    case 'equals':
      if (values.length === 0) return hasNull ? `${col} IS NULL` : ALWAYS_FALSE;
      if (values.length === 1) return `${col} = ${first()}${orNull(hasNull)}`;
      return `${col} IN (${values.map(cast).join(', ')})${orNull(hasNull)}`;
    case 'notEquals':
      if (values.length === 0) return hasNull ? `${col} IS NOT NULL` : ALWAYS_TRUE;
      if (values.length === 1) return `${col} <> ${first()}${orNull(!hasNull)}`;
      return `${col} NOT IN (${values.map(cast).join(', ')})${orNull(!hasNull)}`;
    case 'contains':
      return like(false, "'%' || ", " || '%'");
    case 'notContains':
      return like(true, "'%' || ", " || '%'");
    case 'startsWith':
      return like(false, '', " || '%'");
    case 'notStartsWith':
      return like(true, '', " || '%'");
    case 'endsWith':
      return like(false, "'%' || ", '');
    case 'notEndsWith':
      return like(true, "'%' || ", '');
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte': {
      const op = { gt: '>', gte: '>=', lt: '<', lte: '<=' }[f.operator];
      if (t.type === 'time') return `${timeCol} ${op} ${utcParam(ctx, boundFrom(dateValue(0)))}`;
      return `${col} ${op} ${first()}`;
    }
    case 'set':
      return `${col} IS NOT NULL`;
    case 'notSet':
      return `${col} IS NULL`;
    case 'inDateRange':
      return `${timeCol} >= ${utcParam(ctx, boundFrom(dateValue(0)))} AND ${timeCol} <= ${utcParam(ctx, boundTo(dateValue(1)))}`;
    case 'notInDateRange':
      return `${timeCol} < ${utcParam(ctx, boundFrom(dateValue(0)))} OR ${timeCol} > ${utcParam(ctx, boundTo(dateValue(1)))}`;
    // Cube compares all single-date operators against the start of the given day.
    case 'beforeDate':
      return `${timeCol} < ${utcParam(ctx, boundFrom(dateValue(0)))}`;
    case 'beforeOrOnDate':
      return `${timeCol} <= ${utcParam(ctx, boundFrom(dateValue(0)))}`;
    case 'afterDate':
      return `${timeCol} > ${utcParam(ctx, boundFrom(dateValue(0)))}`;
    case 'afterOrOnDate':
      return `${timeCol} >= ${utcParam(ctx, boundFrom(dateValue(0)))}`;
    case 'measureFilter':
      if (t.measureConditions === undefined) throw new QueryError(`Operator measureFilter needs a measure, and ${f.member} is not one`);
      return t.measureConditions;
  }
}
