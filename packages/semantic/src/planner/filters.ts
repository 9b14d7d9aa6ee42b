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

export function isMemberFilter(filter: Filter): filter is MemberFilter {
  return 'member' in filter;
}

/** Members a filter tree names, to decide between WHERE and HAVING and to join their cubes. */
export function filterMembers(filter: Filter, into: string[] = []): string[] {
  if (isMemberFilter(filter)) into.push(filter.member);
  else for (const sub of 'and' in filter ? filter.and : filter.or) filterMembers(sub, into);
  return into;
}

export function renderFilter(filter: Filter, ctx: FilterContext): string {
  return renderPart(filter, ctx) ?? ALWAYS_TRUE;
}

/**
 * A filter's condition, or undefined for an `and` or `or` group with no conditions in it. Cube leaves
 * such a group out of its parent (BaseGroupFilter returns no SQL), so `{or: [x, {and: []}]}` is `x`,
 * and a query whose only filter is `{or: []}` is not filtered at all.
 */
function renderPart(filter: Filter, ctx: FilterContext): string | undefined {
  if (isMemberFilter(filter)) return renderCondition(filter, ctx.target(filter.member), ctx);
  const isAnd = 'and' in filter;
  const parts = (isAnd ? filter.and : filter.or).flatMap((sub) => {
    const sql = renderPart(sub, ctx);
    return sql === undefined ? [] : [`(${sql})`];
  });
  return parts.length === 0 ? undefined : parts.join(isAnd ? ' AND ' : ' OR ');
}

const WHOLE_NUMBER = /^[+-]?\d+$/;

/** The type a value is bound as: a whole number as one, so a big integer id is not rounded to a double. */
function paramType(type: FilterTarget['type'], value: string): ParamType {
  if (type === 'time') return 'timestamp';
  return type === 'number' && WHOLE_NUMBER.test(value) ? 'wholeNumber' : type;
}

function utcParam(ctx: FilterContext, wall: number): string {
  return ctx.dialect.castParam(ctx.params.add(formatWall(wallToUtc(wall, ctx.timezone))), 'timestamp');
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Values are bound as text and cast where they are compared, so a number or a boolean reads the same on every warehouse. */
function text(value: FilterValue): string {
  return String(value);
}

const COLUMN_REFERENCE = /^(?:"[^"]*"|\w+)(?:\.(?:"[^"]*"|\w+))*$/;

/**
 * A member's SQL as one operand: a column reference as it is, any other expression in parentheses. A boolean
 * dimension is an expression such as `status = 'completed'`, which `= $1`, `IN (…)` or `IS NULL` would
 * otherwise split (a syntax error, or a comparison of the wrong parts).
 */
function operand(sql: string): string {
  return COLUMN_REFERENCE.test(sql) ? sql : `(${sql})`;
}

const COMPARISONS: ReadonlySet<string> = new Set(['gt', 'gte', 'lt', 'lte']);
/** The operators that take no values; Cube refuses a filter with any other operator and no `values` key. */
const WITHOUT_VALUES: ReadonlySet<string> = new Set(['set', 'notSet', 'measureFilter']);

function renderCondition(filter: MemberFilter, target: FilterTarget, ctx: FilterContext): string {
  if (filter.values === undefined && !WITHOUT_VALUES.has(filter.operator)) {
    throw new QueryError(`Filter on ${filter.member} with operator ${filter.operator} needs values`);
  }
  const all = filter.values ?? [];
  const values = all.filter((v): v is Exclude<FilterValue, null> => v !== null);
  const hasNull = values.length < all.length;
  // Date operators and comparisons of time compare the raw UTC column; reading the local value (target.sql) would
  // bind the query's zone as a parameter the SQL never uses, which both warehouses refuse.
  const col = operand(
    target.rawTimeSql !== undefined && (DATE_OPERATORS.has(filter.operator) || (target.type === 'time' && COMPARISONS.has(filter.operator)))
      ? target.rawTimeSql
      : target.sql,
  );
  const cast = (value: FilterValue): string => {
    const valueText = text(value);
    const placeholder = ctx.params.add(valueText);
    // A string member may sit on a column of another type (a numeric code): left uncast, the
    // warehouse reads the text as the column's type instead of refusing the comparison.
    return target.type === 'string' ? placeholder : ctx.dialect.castParam(placeholder, paramType(target.type, valueText));
  };
  const first = (): string => {
    const value = values[0];
    if (value === undefined) throw new QueryError(`Filter on ${filter.member} with operator ${filter.operator} needs a value`);
    return cast(value);
  };
  const orNull = (add: boolean): string => (add ? ` OR ${col} IS NULL` : '');
  const like = (not: boolean, pre: string, post: string): string => {
    if (values.length === 0) return hasNull ? (not ? `${col} IS NOT NULL` : `${col} IS NULL`) : ALWAYS_TRUE;
    const parts = values.map((value) =>
      ctx.dialect.ilike(col, `${pre}${ctx.dialect.castParam(ctx.params.add(escapeLike(text(value))), 'string')}${post}`, not),
    );
    return `${parts.join(not ? ' AND ' : ' OR ')}${orNull(not ? !hasNull : hasNull)}`;
  };
  const timeCol = target.rawTimeSql === undefined ? col : operand(target.rawTimeSql);
  const dateValue = (position: number): string => {
    const value = values[position];
    if (typeof value !== 'string')
      throw new QueryError(`Filter on ${filter.member} with operator ${filter.operator} needs a date as value ${position + 1}`);
    return value;
  };
  switch (filter.operator) {
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
      const op = { gt: '>', gte: '>=', lt: '<', lte: '<=' }[filter.operator];
      if (target.type === 'time') return `${timeCol} ${op} ${utcParam(ctx, boundFrom(dateValue(0), ctx.timezone))}`;
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
      if (target.measureConditions === undefined)
        throw new QueryError(`Operator measureFilter needs a measure, and ${filter.member} is not one`);
      return target.measureConditions;
  }
}
