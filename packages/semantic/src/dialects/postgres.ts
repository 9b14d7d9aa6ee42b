import type { Granularity } from '../planner/query.js';
import type { Dialect, ParamType } from './dialect.js';

const TYPES: Record<ParamType, string> = {
  string: 'text',
  number: 'numeric',
  wholeNumber: 'numeric',
  integer: 'bigint',
  boolean: 'boolean',
  timestamp: 'timestamptz',
};

/** The driver sets the session time zone to UTC, so `::timestamptz` reads zone-less columns as UTC. */
export const postgresDialect: Dialect = {
  name: 'postgres',
  quote: (id) => `"${id.replace(/"/g, '""')}"`,
  param: (i) => `$${i}`,
  castParam: (p, type) => `${p}::${TYPES[type]}`,
  truncate: (g: Granularity, expr) => `date_trunc('${g}', ${expr})`,
  convertTz: (expr, zone) => `((${expr})::timestamptz AT TIME ZONE ${zone})`,
  ilike: (expr, pattern, not) => `${expr}${not ? ' NOT' : ''} ILIKE ${pattern} ESCAPE '\\'`,
  // Stock PostgreSQL has no HyperLogLog; an exact distinct count is a correct, if slower, answer.
  countDistinctApprox: (expr) => `count(DISTINCT ${expr})`,
};
