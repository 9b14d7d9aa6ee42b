import type { MetaMember } from '../meta.js';

/** A PostgreSQL type as a wire client sees it: its name in `pg_type` and its oid. */
export interface PgType {
  name: 'int8' | 'float8' | 'numeric' | 'text' | 'timestamp' | 'bool';
  oid: number;
}

export const PG_TYPES = {
  int8: { name: 'int8', oid: 20 },
  float8: { name: 'float8', oid: 701 },
  numeric: { name: 'numeric', oid: 1700 },
  text: { name: 'text', oid: 25 },
  timestamp: { name: 'timestamp', oid: 1114 },
  bool: { name: 'bool', oid: 16 },
} as const satisfies Record<string, PgType>;

const COUNT_TYPES = new Set(['count', 'count_distinct', 'count_distinct_approx']);

/**
 * The PostgreSQL type of a member's column, from its `/v1/meta` entry (a measure has an `aggType`):
 * counts are int8, other numbers float8, times timestamp (Cube's times carry no zone), booleans
 * bool, everything else text. The SQL API's answers and its catalog both use this one mapping.
 */
export function pgTypeOf(member: Pick<MetaMember, 'type' | 'aggType'>): PgType {
  if (member.type === 'number') return COUNT_TYPES.has(member.aggType ?? '') ? PG_TYPES.int8 : PG_TYPES.float8;
  if (member.type === 'time') return PG_TYPES.timestamp;
  if (member.type === 'boolean') return PG_TYPES.bool;
  return PG_TYPES.text;
}

/** The Arrow type name Cube's `/cubesql` schema line reports for a PostgreSQL type. */
export function arrowTypeOf(type: PgType): string {
  switch (type.name) {
    case 'int8':
      return 'Int64';
    case 'float8':
    case 'numeric':
      return 'Float64';
    case 'timestamp':
      return 'Timestamp(Nanosecond, None)';
    case 'bool':
      return 'Boolean';
    default:
      return 'Utf8';
  }
}
