import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeCursor, toPage, type KeyKind, type ListOrder } from '../http/pagination.js';
import { openTestStore, storeKinds } from '../test-support/stores.js';
import { afterPosition, timestampKey } from './keyset.js';
import type { Store } from './store.js';

type Row = { id: number; name: string; sha: string | null; created: string };

// Ties on the sort key (two rows per created_at, per sha) are what the id in the cursor is for;
// microseconds apart is what a millisecond cursor would get wrong.
const ROWS = [
  ['ks-delta', 'b3f1', '2026-01-01 00:00:00.000001+00'],
  ['ks-alpha', 'a0c2', '2026-01-01 00:00:00.000002+00'],
  ['ks-echo', 'b3f1', '2026-01-01 00:00:00.000002+00'],
  ['ks-charlie', 'ffee', '2026-01-01 00:00:00.000003+00'],
  ['ks-bravo', 'a0c2', '2026-01-02 10:00:00+00'],
  ['ks-foxtrot', '0001', '2025-12-31 23:59:59.999999+00'],
  ['ks-golf', 'b3f1', '2026-01-01 00:00:00.000001+00'],
] as const;

const order = (sort: string, kind: KeyKind, direction: 'asc' | 'desc', keyOf: (row: Row) => string | number): ListOrder<Row> => ({
  list: 'keyset-test',
  sort,
  kind,
  direction,
  keyOf,
});
const ORDERS: Array<[ListOrder<Row>, string]> = [
  [order('name', 'text', 'asc', (r) => r.name), 'name'],
  [order('name', 'text', 'desc', (r) => r.name), 'name'],
  [order('sha', 'text', 'asc', (r) => r.sha!), 'sha'],
  [order('created', 'timestamp', 'desc', (r) => r.created), 'created_at'],
  [order('created', 'timestamp', 'asc', (r) => r.created), 'created_at'],
  [order('id', 'id', 'desc', (r) => r.id), 'id'],
];

describe.each(storeKinds)('keyset paging in any order [%s]', (kind) => {
  let store: Store;
  // A table of its own: the product's tables have unique sort keys where ties are wanted here.
  let db: Kysely<any>;
  beforeAll(async () => {
    store = await openTestStore(kind);
    db = store.db as Kysely<any>;
    await sql`create table keyset_test (id serial primary key, name text not null, sha text, created_at timestamptz not null)`.execute(db);
    for (const [name, sha, created] of ROWS) {
      await sql`insert into keyset_test (name, sha, created_at) values (${name}, ${sha}, ${created}::timestamptz)`.execute(db);
    }
  });
  afterAll(() => store.close());

  const page = (o: ListOrder<Row>, column: string, after: string | undefined) =>
    db
      .selectFrom('keyset_test')
      .select(['id', 'name', 'sha', timestampKey('created_at').as('created')])
      .$call(afterPosition(o as ListOrder<never>, { key: column, id: 'id' }, decodeCursor(o as ListOrder<never>, after), 3))
      .execute() as Promise<Row[]>;

  it.each(ORDERS.map(([o, column]) => [`${o.sort} ${o.direction}`, o, column] as const))(
    'pages through every row once, in the order of the whole list (%s)',
    async (_, o, column) => {
      const whole = await db
        .selectFrom('keyset_test')
        .select('id')
        .orderBy(sql.ref(column), o.direction)
        .orderBy('id', o.direction)
        .execute();
      const seen: number[] = [];
      let after: string | undefined;
      for (let pages = 0; pages < 10; pages++) {
        const rows = await page(o, column, after);
        const result = toPage(o, rows, { first: 2, ...(after ? { after } : {}) }, (r) => r.id);
        seen.push(...result.items);
        if (!result.pageInfo.hasNextPage) break;
        after = result.pageInfo.endCursor!;
      }
      expect(seen).toEqual(whole.map((r) => r.id));
      expect(seen).toHaveLength(ROWS.length);
    },
  );

  it('holds timestamps to the microsecond, in UTC', async () => {
    const rows = await page(ORDERS[4]![0], 'created_at', undefined);
    expect(rows.map((r) => r.created)).toEqual([
      '2025-12-31T23:59:59.999999Z',
      '2026-01-01T00:00:00.000001Z',
      '2026-01-01T00:00:00.000001Z',
    ]);
  });
});
