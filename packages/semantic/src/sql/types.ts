import type { MetaMember } from '../meta.js';

/** A PostgreSQL type as a wire client sees it: its name in `pg_type` and its oid. */
export interface PgType {
  name: 'int8' | 'int4' | 'float8' | 'numeric' | 'text' | 'timestamp' | 'timestamptz' | 'date' | 'bool';
  oid: number;
}

export const PG_TYPES = {
  int8: { name: 'int8', oid: 20 },
  int4: { name: 'int4', oid: 23 },
  float8: { name: 'float8', oid: 701 },
  numeric: { name: 'numeric', oid: 1700 },
  text: { name: 'text', oid: 25 },
  timestamp: { name: 'timestamp', oid: 1114 },
  timestamptz: { name: 'timestamptz', oid: 1184 },
  date: { name: 'date', oid: 1082 },
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
    case 'int4':
      return 'Int32';
    case 'date':
      return 'Date32';
    case 'float8':
    case 'numeric':
      return 'Float64';
    case 'timestamp':
    case 'timestamptz':
      return 'Timestamp(Nanosecond, None)';
    case 'bool':
      return 'Boolean';
    default:
      return 'Utf8';
  }
}

const ISO_LOCAL = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2}(?:\.\d+)?)$/;

/**
 * A value of an answer row in PostgreSQL's text format for its column's type, as a DataRow carries
 * it: booleans `t`/`f`, timestamps with a space (`2024-01-01 00:00:00.000`), everything else as the
 * text it already is; null for NULL.
 */
export function pgText(value: unknown, type: PgType['name']): string | null {
  if (value === null || value === undefined) return null;
  if (type === 'bool') return value === true || value === 'true' || value === 't' ? 't' : 'f';
  if (type === 'timestamp' || type === 'timestamptz') {
    const match = ISO_LOCAL.exec(String(value));
    if (match) return `${match[1]} ${match[2]}${type === 'timestamptz' ? '+00' : ''}`;
  }
  return typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
}
