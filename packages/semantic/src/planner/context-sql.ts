import { QueryError } from '../errors.js';
import type { Caller, ContextRef, FilterColumn, FilterParamRef, Member } from '../model.js';
import { boundFrom, boundTo, formatWall, wallToUtc } from './dates.js';
import { ALWAYS_FALSE, ALWAYS_TRUE, isMemberFilter, renderFilter, type FilterContext } from './filters.js';
import { contextValue } from './policy.js';
import type { Filter, MemberFilter } from './query.js';
import type { ContextSql, Params } from './render.js';

/** What the security-context and FILTER_PARAMS references of one query need to be written. */
export interface ContextSqlInput {
  readonly caller: Caller;
  readonly params: Params;
  readonly filterContext: Omit<FilterContext, 'target'>;
  /** The query's filters, date ranges included as `inDateRange` filters; measure filters are skipped. */
  readonly filters: readonly Filter[];
  /** The cube member a query path names (view members resolve to the cube member behind them). */
  readonly memberOf: (path: string) => Member;
}

type Scalar = string | number | boolean;

/** Renders context references; every value goes into `params`, none into the SQL text. */
export function contextSql(input: ContextSqlInput): ContextSql {
  return {
    render(ref: ContextRef): string {
      switch (ref.kind) {
        case 'constant':
          return input.params.add(ref.value);
        case 'securityValue':
          return securityValue(input, ref.path);
        case 'securityFilter':
          return securityFilter(input, ref.path, ref.column, ref.required);
        case 'filterParams':
          return filterParams(input, ref.group);
      }
    },
  };
}

function shownPath(path: readonly string[]): string {
  return `securityContext.${path.join('.')}`;
}

function scalars(value: unknown, path: readonly string[]): Scalar[] {
  const list = Array.isArray(value) ? (value as unknown[]) : [value];
  if (!list.every((v) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')) {
    throw new QueryError(`${shownPath(path)} must be a string, number, boolean or a list of them to be used in SQL`);
  }
  return list as Scalar[];
}

/** `{securityContext.x}`: the value as a parameter (a list as several, comma-separated); missing is an error. */
function securityValue(input: ContextSqlInput, path: readonly string[]): string {
  const value = contextValue(input.caller, 'securityContext', path);
  if (value === undefined || value === null)
    throw new QueryError(`${shownPath(path)} is used by the data model but not set in the security context`);
  const values = scalars(value, path);
  if (values.length === 0) throw new QueryError(`${shownPath(path)} is an empty list, which cannot be written into SQL`);
  return values.map((v) => input.params.add(v)).join(', ');
}

/**
 * `{SECURITY_CONTEXT.x.filter('column')}`, as Cube writes it: `column = value`, `column IN (...)` for a
 * list, `1 = 0` for an empty list, and `1 = 1` when the value is not set at all (Cube's documented
 * behaviour; `requiredFilter` makes a missing value an error instead).
 */
function securityFilter(input: ContextSqlInput, path: readonly string[], column: FilterColumn, required: boolean): string {
  const value = contextValue(input.caller, 'securityContext', path);
  const shown = column.kind === 'column' ? column.sql : 'lambda';
  if (value === undefined || value === null) {
    if (required) throw new QueryError(`Filter for ${shown} is required`);
    return ALWAYS_TRUE;
  }
  const values = scalars(value, path);
  if (column.kind === 'lambda') return lambdaSql(column, [values.map((v) => input.params.add(v)).join(', ')]);
  if (values.length === 0) return ALWAYS_FALSE;
  if (!Array.isArray(value)) return `${column.sql} = ${input.params.add(values[0])}`;
  return `${column.sql} IN (${values.map((v) => input.params.add(v)).join(', ')})`;
}

function lambdaSql(column: Extract<FilterColumn, { kind: 'lambda' }>, args: readonly string[]): string {
  return column.body
    .map((part) => {
      if (typeof part === 'string') return part;
      const arg = args[part];
      if (arg === undefined) {
        throw new QueryError(
          `A filter lambda uses its argument ${column.params[part] ?? part}, but the filter gives only ${args.length} value(s)`,
        );
      }
      return arg;
    })
    .join('');
}

/**
 * `{FILTER_PARAMS.cube.member.filter(...)}` and `{FILTER_GROUP(...)}`: the query's filters on those
 * members, written against the given column. Filters on other members are left out where that only
 * widens the condition (in an AND); an OR that also involves other members becomes `1 = 1`. The query's
 * own WHERE still applies in full, so the pushed-down condition never changes the answer's rows.
 */
function filterParams(input: ContextSqlInput, group: readonly FilterParamRef[]): string {
  const columnOf = new Map(group.map((item) => [`${item.cube}.${item.member}`, item.column]));
  const columnFor = (filter: MemberFilter): { member: Member; column: FilterColumn } | undefined => {
    const member = input.memberOf(filter.member);
    const column = columnOf.get(member.path);
    // A lambda needs values to receive; a filter without any (set, notSet) is not pushed, as in Cube.
    const hasValues = (filter.values ?? []).some((v) => v !== null);
    return column && member.kind !== 'measure' && (column.kind === 'column' || hasValues) ? { member, column } : undefined;
  };
  // Decided before anything is written, so that no parameter is bound for a part that is then dropped.
  const pushable = (filter: Filter): boolean => {
    if (isMemberFilter(filter)) return columnFor(filter) !== undefined;
    return 'and' in filter ? filter.and.some(pushable) : filter.or.length === 0 || filter.or.every(pushable);
  };
  const write = (filter: Filter): string | undefined => {
    if (isMemberFilter(filter)) {
      const target = columnFor(filter);
      return target ? memberCondition(input, filter, target.member, target.column) : undefined;
    }
    if ('or' in filter && filter.or.length === 0) return ALWAYS_FALSE;
    const parts = ('and' in filter ? filter.and.filter(pushable) : filter.or).map(write);
    if (parts.some((p) => p === undefined)) return undefined;
    return parts.map((p) => `(${p})`).join('and' in filter ? ' AND ' : ' OR ');
  };
  const root: Filter = { and: [...input.filters] };
  return (pushable(root) && write(root)) || ALWAYS_TRUE;
}

function memberCondition(input: ContextSqlInput, filter: MemberFilter, member: Member, column: FilterColumn): string {
  const type = member.kind === 'dimension' ? member.type : 'boolean';
  if (column.kind === 'column') {
    const ctx: FilterContext = {
      ...input.filterContext,
      target: () => ({ sql: column.sql, rawTimeSql: type === 'time' ? column.sql : undefined, type }),
    };
    return renderFilter(filter, ctx);
  }
  // A lambda receives the filter's values as parameters; dates as UTC instants, as Cube passes them.
  const values = (filter.values ?? []).filter((v) => v !== null);
  const zone = input.filterContext.timezone;
  const utc = (wall: number): string => formatWall(wallToUtc(wall, zone));
  const dateOperator = ['inDateRange', 'notInDateRange', 'beforeDate', 'beforeOrOnDate', 'afterDate', 'afterOrOnDate'].includes(
    filter.operator,
  );
  const args = values.map((v, i) => {
    const text = String(v);
    if (!dateOperator) return input.params.add(text);
    return input.params.add(utc(i === 1 && filter.operator.endsWith('DateRange') ? boundTo(text) : boundFrom(text)));
  });
  return lambdaSql(column, args);
}
