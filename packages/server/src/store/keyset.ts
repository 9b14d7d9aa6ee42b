import { sql, type SelectQueryBuilder } from 'kysely';

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
