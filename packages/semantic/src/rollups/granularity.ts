import type { Granularity } from '../planner/query.js';

/**
 * The granularities a bucket of `granularity` rolls up into exactly: each coarser bucket is a union
 * of whole finer ones. A week straddles months, so week rolls up into nothing but itself.
 */
const COARSER: Record<Granularity, readonly Granularity[]> = {
  second: ['second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'],
  minute: ['minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'],
  hour: ['hour', 'day', 'week', 'month', 'quarter', 'year'],
  day: ['day', 'week', 'month', 'quarter', 'year'],
  week: ['week'],
  month: ['month', 'quarter', 'year'],
  quarter: ['quarter', 'year'],
  year: ['year'],
};

/** Whether buckets of `coarse` are unions of whole buckets of `fine`. */
export function rollsUpInto(fine: Granularity, coarse: Granularity): boolean {
  return COARSER[fine].includes(coarse);
}
