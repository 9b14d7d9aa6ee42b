import type { Dialect, ParamType } from '../dialects/dialect.js';
import { QueryError } from '../errors.js';
import { boundFrom, boundTo, formatWall, wallToUtc } from './dates.js';
import { DATE_OPERATORS, type Filter, type FilterValue, type MemberFilter } from './query.js';
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
  return renderPart(f, ctx) ?? ALWAYS_TRUE;
}

/**
 * A filter's condition, or undefined for an `and` or `or` group with no conditions in it. Cube leaves
 * such a group out of its parent (BaseGroupFilter returns no SQL), so `{or: [x, {and: []}]}` is `x`,
 * and a query whose only filter is `{or: []}` is not filtered at all.
 */
function renderPart(f: Filter, ctx: FilterContext): string | undefined {
  if (isMemberFilter(f)) return renderCondition(f, ctx.target(f.member), ctx);
  const isAnd = 'and' in f;
  const parts = (isAnd ? f.and : f.or).flatMap((sub) => {
    const sql = renderPart(sub, ctx);
    return sql === undefined ? [] : [`(${sql})`];
  });
  return parts.length === 0 ? undefined : parts.join(isAnd ? ' AND ' : ' OR ');
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

/** Values are bound as text and cast where they are compared, so a number or a boolean reads the same on every warehouse. */
function text(v: FilterValue): string {
  return String(v);
}

const COMPARISONS: ReadonlySet<string> = new Set(['gt', 'gte', 'lt', 'lte']);
/** The operators that take no values; Cube refuses a filter with any other operator and no `values` key. */
const WITHOUT_VALUES: ReadonlySet<string> = new Set(['set', 'notSet', 'measureFilter']);

function renderCondition(f: MemberFilter, t: FilterTarget, ctx: FilterContext): string {
  if (f.values === undefined && !WITHOUT_VALUES.has(f.operator)) {
    throw new QueryError(`Filter on ${f.member} with operator ${f.operator} needs values`);
  }
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
    // A string member may sit on a column of another type (a numeric code): left uncast, the
    // warehouse reads the text as the column's type instead of refusing the comparison.
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
      if (t.type === 'time') return `${timeCol} ${op} ${utcParam(ctx, boundFrom(dateValue(0), ctx.timezone))}`;
      return `${col} ${op} ${first()}`;
    }
    case 'set':
      return `${col} IS NOT NULL`;
    case 'notSet':
      return `${col} IS NULL`;
    case 'inDateRange':
      return `${timeCol} >= ${utcParam(ctx, boundFrom(dateValue(0), ctx.timezone))} AND ${timeCol} <= ${utcParam(ctx, boundTo(dateValue(1), ctx.timezone))}`;
    case 'notInDateRange':
      return `${timeCol} < ${utcParam(ctx, boundFrom(dateValue(0), ctx.timezone))} OR ${timeCol} > ${utcParam(ctx, boundTo(dateValue(1), ctx.timezone))}`;
    // Cube compares all single-date operators against the start of the given day.
    case 'beforeDate':
      return `${timeCol} < ${utcParam(ctx, boundFrom(dateValue(0), ctx.timezone))}`;
    case 'beforeOrOnDate':
      return `${timeCol} <= ${utcParam(ctx, boundFrom(dateValue(0), ctx.timezone))}`;
    case 'afterDate':
      return `${timeCol} > ${utcParam(ctx, boundFrom(dateValue(0), ctx.timezone))}`;
    case 'afterOrOnDate':
      return `${timeCol} >= ${utcParam(ctx, boundFrom(dateValue(0), ctx.timezone))}`;
    case 'measureFilter':
      if (t.measureConditions === undefined) throw new QueryError(`Operator measureFilter needs a measure, and ${f.member} is not one`);
      return t.measureConditions;
  }
}
