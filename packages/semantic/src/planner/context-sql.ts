import { QueryError } from '../errors.js';
import type { ContextRef, FilterColumn, FilterParamRef, Member } from '../model.js';
import { boundFrom, boundTo, formatWall, wallToUtc } from './dates.js';
import { ALWAYS_FALSE, ALWAYS_TRUE, isMemberFilter, renderFilter, type FilterContext } from './filters.js';
import { contextValue } from './policy.js';
import type { Filter, MemberFilter } from './query.js';
import type { LogicalQuery } from './logical.js';
import type { Renderer } from './render.js';
import { resolveMember } from './resolve.js';

type Scalar = string | number | boolean;

/**
 * The filters FILTER_PARAMS reads: the query's filters, and its `timeDimensions` date ranges as
 * `inDateRange` filters (Cube counts both), with the ranges' wall-clock bounds already resolved.
 */
export function pushdownFilters(logical: LogicalQuery): Filter[] {
  return [
    ...logical.query.filters,
    ...logical.dateRanges.map((range): Filter => ({
      member: range.path,
      operator: 'inDateRange',
      values: [formatWall(range.from), formatWall(range.to)],
    })),
  ];
}

/** Writes a security-context, COMPILE_CONTEXT or FILTER_PARAMS reference; every value goes into the renderer's parameters. */
export function renderContextRef(renderer: Renderer, ref: ContextRef): string {
  switch (ref.kind) {
    case 'constant':
      return renderer.params.add(ref.value);
    case 'securityValue':
      return securityValue(renderer, ref.path);
    case 'securityFilter':
      return securityFilter(renderer, ref.path, ref.column, ref.required);
    case 'filterParams':
      return filterParams(renderer, ref.group);
  }
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
function securityValue(renderer: Renderer, path: readonly string[]): string {
  const value = contextValue(renderer.caller, 'securityContext', path);
  if (value === undefined || value === null)
    throw new QueryError(`${shownPath(path)} is used by the data model but not set in the security context`);
  const values = scalars(value, path);
  if (values.length === 0) throw new QueryError(`${shownPath(path)} is an empty list, which cannot be written into SQL`);
  return values.map((v) => renderer.params.add(v)).join(', ');
}

/**
 * `{SECURITY_CONTEXT.x.filter('column')}`, as Cube writes it: `column = value`, `column IN (...)` for a
 * list, `1 = 0` for an empty list, and `1 = 1` when the value is not set at all (Cube's documented
 * behaviour; `requiredFilter` makes a missing value an error instead).
 */
function securityFilter(renderer: Renderer, path: readonly string[], column: FilterColumn, required: boolean): string {
  const value = contextValue(renderer.caller, 'securityContext', path);
  const shown = column.kind === 'column' ? column.sql : 'lambda';
  if (value === undefined || value === null) {
    if (required) throw new QueryError(`Filter for ${shown} is required`);
    return ALWAYS_TRUE;
  }
  const values = scalars(value, path);
  // An empty list matches nothing, in either form (a lambda would otherwise receive an empty `IN ()`).
  if (values.length === 0) return ALWAYS_FALSE;
  if (column.kind === 'lambda') return lambdaSql(column, [values.map((v) => renderer.params.add(v)).join(', ')]);
  if (!Array.isArray(value)) return `${column.sql} = ${renderer.params.add(values[0])}`;
  return `${column.sql} IN (${values.map((v) => renderer.params.add(v)).join(', ')})`;
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
function filterParams(renderer: Renderer, group: readonly FilterParamRef[]): string {
  const columnOf = new Map(group.map((item) => [`${item.cube}.${item.member}`, item.column]));
  const columnFor = (filter: MemberFilter): { member: Member; column: FilterColumn } | undefined => {
    const member = resolveMember(renderer.model, filter.member, renderer.caller).member;
    const column = columnOf.get(member.path);
    // A lambda needs values to receive; a filter without any (set, notSet) is not pushed, as in Cube.
    const hasValues = (filter.values ?? []).some((v) => v !== null);
    return column && member.kind !== 'measure' && (column.kind === 'column' || hasValues) ? { member, column } : undefined;
  };
  // Decided before anything is written, so that no parameter is bound for a part that is then dropped.
  const pushable = (filter: Filter): boolean => {
    if (isMemberFilter(filter)) return columnFor(filter) !== undefined;
    // An empty `or` is not pushed: how the query's WHERE reads it is the planner's decision, not this one's.
    return 'and' in filter ? filter.and.some(pushable) : filter.or.length > 0 && filter.or.every(pushable);
  };
  const write = (filter: Filter): string | undefined => {
    if (isMemberFilter(filter)) {
      const target = columnFor(filter);
      return target ? memberCondition(renderer, filter, target.member, target.column) : undefined;
    }
    const parts = ('and' in filter ? filter.and.filter(pushable) : filter.or).map(write);
    if (parts.some((p) => p === undefined)) return undefined;
    return parts.map((p) => `(${p})`).join('and' in filter ? ' AND ' : ' OR ');
  };
  const root: Filter = { and: [...renderer.filters] };
  return (pushable(root) && write(root)) || ALWAYS_TRUE;
}

function memberCondition(renderer: Renderer, filter: MemberFilter, member: Member, column: FilterColumn): string {
  // A geo value is the text `latitude,longitude`, compared as a string (as render-query.ts does).
  const type = member.kind !== 'dimension' ? 'boolean' : member.type === 'geo' ? 'string' : member.type;
  if (column.kind === 'column') {
    const ctx: FilterContext = {
      dialect: renderer.dialect,
      params: renderer.params,
      timezone: renderer.timezone,
      target: () => ({ sql: column.sql, rawTimeSql: type === 'time' ? column.sql : undefined, type }),
    };
    return renderFilter(filter, ctx);
  }
  // A lambda receives the filter's values as parameters; dates as UTC instants, as Cube passes them.
  const values = (filter.values ?? []).filter((v) => v !== null);
  const zone = renderer.timezone;
  const utc = (wall: number): string => formatWall(wallToUtc(wall, zone));
  const dateOperator = ['inDateRange', 'notInDateRange', 'beforeDate', 'beforeOrOnDate', 'afterDate', 'afterOrOnDate'].includes(
    filter.operator,
  );
  const args = values.map((value, position) => {
    const text = String(value);
    if (!dateOperator) return renderer.params.add(text);
    return renderer.params.add(utc(position === 1 && filter.operator.endsWith('DateRange') ? boundTo(text, zone) : boundFrom(text, zone)));
  });
  return lambdaSql(column, args);
}
