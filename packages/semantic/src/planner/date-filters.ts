import { endOf, formatWall, parseAbsolute, utcToWall } from './dates.js';
import type { Filter } from './query.js';
import { relativeRange } from './relative-dates.js';

const RANGE_OPERATORS = new Set(['inDateRange', 'notInDateRange']);

/**
 * Date-range filters given one value, made explicit: a date means from that date to the end of today,
 * as Cube's SQL planner reads a missing end (`formatToDate(undefined)` is now, to the end of the day);
 * a relative phrase (`last week`) is its range. Other filters are returned unchanged.
 */
export function completeDateRangeFilters(filters: readonly Filter[], timezone: string, now: () => Date): Filter[] {
  const complete = (filter: Filter): Filter => {
    if ('and' in filter) return { and: filter.and.map(complete) };
    if ('or' in filter) return { or: filter.or.map(complete) };
    const [value, ...rest] = filter.values ?? [];
    if (!RANGE_OPERATORS.has(filter.operator) || typeof value !== 'string' || rest.length > 0) return filter;
    if (parseAbsolute(value)) {
      const endOfToday = endOf(utcToWall(now().getTime(), timezone), 'day');
      return { ...filter, values: [value, formatWall(endOfToday)] };
    }
    const [from, to] = relativeRange(value, timezone, now().getTime());
    return { ...filter, values: [formatWall(from), formatWall(to)] };
  };
  return filters.map(complete);
}
