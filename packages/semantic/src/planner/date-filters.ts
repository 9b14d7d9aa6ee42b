import { endOf, formatWall, parseAbsolute, utcToWall } from './dates.js';
import type { Filter } from './query.js';
import { relativeRange } from './relative-dates.js';

const RANGE_OPERATORS = new Set(['inDateRange', 'notInDateRange']);
/** Single-date operators that compare with the start of a relative phrase's range, and those that compare with its end. */
const FROM_START = new Set(['beforeDate', 'afterOrOnDate']);
const FROM_END = new Set(['beforeOrOnDate', 'afterDate']);

/**
 * Date filters given one value, made explicit as Cube's gateway and SQL planner read them. For a range
 * operator, a date means from that date to the end of today (`formatToDate(undefined)` is now, to the
 * end of the day) and a relative phrase (`last week`) is its range. For a single-date operator, a
 * relative phrase is the start of its range (`beforeDate`, `afterOrOnDate`) or its end
 * (`beforeOrOnDate`, `afterDate`). Other filters are returned unchanged.
 */
export function completeDateRangeFilters(filters: readonly Filter[], timezone: string, now: () => Date): Filter[] {
  const complete = (filter: Filter): Filter => {
    if ('and' in filter) return { and: filter.and.map(complete) };
    if ('or' in filter) return { or: filter.or.map(complete) };
    const [value, ...rest] = filter.values ?? [];
    if (typeof value !== 'string' || rest.length > 0) return filter;
    const relative = (): [number, number] => relativeRange(value, timezone, now().getTime());
    if (RANGE_OPERATORS.has(filter.operator)) {
      if (parseAbsolute(value)) {
        const endOfToday = endOf(utcToWall(now().getTime(), timezone), 'day');
        return { ...filter, values: [value, formatWall(endOfToday)] };
      }
      return { ...filter, values: relative().map(formatWall) };
    }
    if (parseAbsolute(value)) return filter;
    if (FROM_START.has(filter.operator)) return { ...filter, values: [formatWall(relative()[0])] };
    if (FROM_END.has(filter.operator)) return { ...filter, values: [formatWall(relative()[1])] };
    return filter;
  };
  return filters.map(complete);
}
