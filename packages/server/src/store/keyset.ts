import { sql, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import type { ListOrder, Position } from '../http/pagination.js';

/**
 * Keyset paging: the rows after the cursor's id, in id order, at most `limit` (repositories ask for
 * one more than a page, see http/pagination.ts). Use as `.$call(afterId('id', after, limit))`.
 */
export function afterId(column: string, after: number | undefined, limit: number) {
  return <DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>): SelectQueryBuilder<DB, TB, O> => {
    const bounded = after === undefined ? query : query.where(sql.ref(column), '>', after);
    return bounded.orderBy(sql.ref(column)).limit(limit);
  };
}

/**
 * Keyset paging in a list's order (sort key, then id, both in its direction): the rows after
 * `after`, at most `limit`. `key` is the sort key's column; the row comparison lets PostgreSQL
 * walk an index on (key, id) from the cursor on. For an id-ordered list it is `afterId`.
 * Use as `.$call(afterPosition(order, { key: 'd.name', id: 'd.id' }, after, limit))`.
 */
export function afterPosition(order: ListOrder<never>, columns: { key: string; id: string }, after: Position | undefined, limit: number) {
  return <DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>): SelectQueryBuilder<DB, TB, O> => {
    const dir = order.direction;
    if (order.kind === 'id') {
      const bounded = after === undefined ? query : query.where(sql.ref(columns.id), dir === 'asc' ? '>' : '<', after.id);
      return bounded.orderBy(sql.ref(columns.id), dir).limit(limit);
    }
    const key = order.kind === 'timestamp' ? sql`cast(${after?.key} as timestamptz)` : sql`${after?.key}`;
    const bounded =
      after === undefined
        ? query
        : query.where(
            sql<boolean>`(${sql.ref(columns.key)}, ${sql.ref(columns.id)}) ${sql.raw(dir === 'asc' ? '>' : '<')} (${key}, ${after.id})`,
          );
    return bounded.orderBy(sql.ref(columns.key), dir).orderBy(sql.ref(columns.id), dir).limit(limit);
  };
}

/**
 * A timestamp as a cursor holds it: UTC to the microsecond. A JavaScript Date keeps milliseconds
 * only, and a cursor rounded to them would skip the rows created within the same millisecond.
 */
export function timestampKey(column: string): RawBuilder<string> {
  return sql<string>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
}
