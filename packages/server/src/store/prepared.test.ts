import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStore, storeKinds } from '../test-support/stores.js';
import { PREPARED } from './prepared.js';
import type { Store } from './store.js';

describe.each(storeKinds)('statements marked PREPARED [%s]', (kind) => {
  let store: Store;
  beforeAll(async () => {
    store = await openTestStore(kind);
  });
  afterAll(() => store.close());

  it('run with fresh parameters on every call, and two texts never share a prepared statement', async () => {
    const double = (n: number) => sql<{ v: number }>`${sql.raw(PREPARED)} select ${n}::integer * 2 as v`.execute(store.db);
    const triple = (n: number) => sql<{ v: number }>`${sql.raw(PREPARED)} select ${n}::integer * 3 as v`.execute(store.db);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? double(i) : triple(i))));
    expect(results.map((r) => r.rows[0]!.v)).toEqual(Array.from({ length: 20 }, (_, i) => (i % 2 ? 2 * i : 3 * i)));
  });

  it('take part in transactions like any other statement', async () => {
    const count = () =>
      sql<{ n: number }>`${sql.raw(PREPARED)} select count(*)::integer as n from account where name = ${'prepared-test'}`.execute(store.db);
    await store.db
      .transaction()
      .execute(async (trx) => {
        await trx.insertInto('account').values({ name: 'prepared-test' }).execute();
        expect(
          (
            await sql<{
              n: number;
            }>`${sql.raw(PREPARED)} select count(*)::integer as n from account where name = ${'prepared-test'}`.execute(trx)
          ).rows[0]!.n,
        ).toBe(1);
        throw Object.assign(new Error('roll back'), { rollback: true });
      })
      .catch((error: { rollback?: boolean }) => {
        if (!error.rollback) throw error;
      });
    expect((await count()).rows[0]!.n).toBe(0);
  });
});
