import type { Granularity } from '../planner/query.js';
import type { Dialect, ParamType } from './dialect.js';

const TYPES: Record<ParamType, string> = {
  string: 'VARCHAR',
  number: 'DOUBLE',
  wholeNumber: 'HUGEINT',
  integer: 'BIGINT',
  boolean: 'BOOLEAN',
  timestamp: 'TIMESTAMP',
};

export const duckdbDialect: Dialect = {
  name: 'duckdb',
  quote: (id) => `"${id.replace(/"/g, '""')}"`,
  param: (i) => `$${i}`,
  castParam: (p, type) => `CAST(${p} AS ${TYPES[type]})`,
  truncate: (g: Granularity, expr) => `date_trunc('${g}', ${expr})`,
  // Sessions run in UTC (see the driver), so the cast reads a zone-less timestamp or a date as UTC and
  // keeps a TIMESTAMPTZ's instant; ICU's timezone() gives the local wall-clock time of that instant.
  convertTz: (expr, zone) => `timezone(${zone}, CAST(${expr} AS TIMESTAMPTZ))`,
  ilike: (expr, pattern, not) => `${expr}${not ? ' NOT' : ''} ILIKE ${pattern} ESCAPE '\\'`,
  countDistinctApprox: (expr) => `approx_count_distinct(${expr})`,
};
