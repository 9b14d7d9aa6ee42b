import type { Granularity } from '../planner/query.js';

/**
 * `wholeNumber` is a number written without a fraction or exponent: compared exactly, whatever its size,
 * where `number` may be a binary floating-point type (2^53 + 1 is not a double).
 */
export type ParamType = 'string' | 'number' | 'wholeNumber' | 'integer' | 'boolean' | 'timestamp';

/**
 * Everything warehouse-specific the planner needs. A further warehouse implements this and a
 * `Warehouse` driver; the planner itself never names a database.
 */
export interface Dialect {
  readonly name: string;
  quote(identifier: string): string;
  /** Placeholder for the 1-based parameter `index`. */
  param(index: number): string;
  castParam(placeholder: string, type: ParamType): string;
  /** Truncates a local (zone-less) timestamp to a granularity; weeks start on Monday as in Cube. */
  truncate(granularity: Granularity, expr: string): string;
  /** Converts a zone-less UTC timestamp to zone-less local time in the zone named by `zonePlaceholder`. */
  convertTz(expr: string, zonePlaceholder: string): string;
  /** Case-insensitive LIKE; `pattern` is SQL that already carries the wildcards, escapes use `\`. */
  ilike(expr: string, pattern: string, not: boolean): string;
  countDistinctApprox(expr: string): string;
}
