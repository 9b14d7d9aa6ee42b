import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openTestStore, storeKinds } from '../test-support/stores.js';
import type { Store } from './store.js';
import { inOpenTransaction, transaction, transactionWithRetry } from './transaction.js';

const rollback = Object.assign(new Error('roll back'), { rollback: true });
const ignoreRollback = (error: unknown) => {
  if (error !== rollback) throw error;
};

function barrier(parties: number): () => Promise<void> {
  let arrived = 0;
  let release!: () => void;
  const all = new Promise<void>((resolve) => (release = resolve));
  return () => {
    if (++arrived === parties) release();
    return all;
  };
}

describe.each(storeKinds)('transaction() carried by the async context [%s]', (kind) => {
  let store: Store;
  beforeAll(async () => {
    store = await openTestStore(kind);
  });
  afterAll(() => store.close());
  beforeEach(async () => {
    await store.db.deleteFrom('account').where('name', 'like', 'tx-%').execute();
  });

  const names = async () =>
    (await store.db.selectFrom('account').select('name').where('name', 'like', 'tx-%').orderBy('name').execute()).map((r) => r.name);
  const add = (name: string) => store.db.insertInto('account').values({ name }).execute();
  const backendPid = async () => (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(store.db)).rows[0]!;

  it('runs a query given no transaction inside it: visible before commit, kept after', async () => {
    await transaction(store.db, async () => {
      await add('tx-a');
      expect(await names()).toEqual(['tx-a']);
      expect(inOpenTransaction(store.db)).toBe(true);
    });
    expect(inOpenTransaction(store.db)).toBe(false);
    expect(await names()).toEqual(['tx-a']);
  });

  it('rolls back every query issued inside it, passed `trx` or not, when the work fails', async () => {
    await transaction(store.db, async (db) => {
      await add('tx-a');
      await db.insertInto('account').values({ name: 'tx-b' }).execute();
      expect(await names()).toEqual(['tx-a', 'tx-b']);
      throw rollback;
    }).catch(ignoreRollback);
    expect(await names()).toEqual([]);
  });

  it('joins the open transaction when nested: the inner one neither commits nor opens another', async () => {
    await transaction(store.db, async () => {
      const outer = await sql<{ x: string }>`select txid_current()::text as x`.execute(store.db);
      await transaction(store.db, async (inner) => {
        await add('tx-inner');
        expect((await sql<{ x: string }>`select txid_current()::text as x`.execute(inner)).rows).toEqual(outer.rows);
      });
      await transactionWithRetry(store.db, () => add('tx-retry-inner'));
      throw rollback;
    }).catch(ignoreRollback);
    expect(await names()).toEqual([]);
  });

  it('gives concurrent callers separate transactions, each seeing only its own writes', async () => {
    // On PostgreSQL both wait for each other between steps, so both are open at once.
    const together = kind === 'postgres' ? [barrier(2), barrier(2)] : [async () => {}, async () => {}];
    const run = (name: string) =>
      transaction(store.db, async () => {
        await add(name);
        await together[0]!();
        const seen = await names();
        await together[1]!();
        const { pid } = await backendPid();
        return { seen, pid };
      });
    const [a, b] = await Promise.all([run('tx-a'), run('tx-b')]);
    expect(a.seen).toEqual(['tx-a']);
    // PGlite has one session, so the second transaction starts once the first has committed.
    expect(b.seen).toEqual(kind === 'postgres' ? ['tx-b'] : ['tx-a', 'tx-b']);
    if (kind === 'postgres') expect(a.pid).not.toBe(b.pid);
    expect(await names()).toEqual(['tx-a', 'tx-b']);
  });

  it('never waits on itself: queries from inside the work, even many at once, complete', async () => {
    const counts = await transaction(store.db, async () => {
      await add('tx-a');
      return Promise.all(Array.from({ length: 10 }, () => names().then((n) => n.length)));
    });
    expect(counts).toEqual(Array(10).fill(1));
  });

  it('leaves work scheduled from inside it, once it has ended, to run outside it', async () => {
    let ended: () => void = () => undefined;
    const end = new Promise<void>((resolve) => (ended = resolve));
    let later!: Promise<string[]>;
    await transaction(store.db, async () => {
      await add('tx-a');
      // Scheduled here, in the transaction's context; it runs once the transaction has committed.
      later = end.then(() => names());
    });
    ended();
    expect(await later).toEqual(['tx-a']);
  });

  it('refuses db.transaction() opened directly inside it, which would end the outer one early', async () => {
    await expect(transaction(store.db, () => store.db.transaction().execute(() => names()))).rejects.toThrow(/already open/);
  });

  it('keeps two stores apart: a transaction on one does not capture the other', async () => {
    const other = await openTestStore(kind);
    try {
      await transaction(store.db, async () => {
        await add('tx-a');
        await transaction(other.db, async () => {
          await other.db.insertInto('account').values({ name: 'tx-other' }).execute();
          expect(await names()).toEqual(['tx-a']);
        });
      });
      expect((await other.db.selectFrom('account').select('name').execute()).map((r) => r.name)).toEqual(['tx-other']);
    } finally {
      await other.close();
    }
  });

  describe('transactionWithRetry', () => {
    it.each([
      ['serialization_failure', '40001'],
      ['deadlock_detected', '40P01'],
    ])('runs the work again from the start after %s (%s), the failed attempt rolled back', async (condition, code) => {
      let attempts = 0;
      let retries = 0;
      const result = await transactionWithRetry(
        store.db,
        async () => {
          attempts++;
          await add(`tx-attempt-${attempts}`);
          if (attempts === 1)
            await sql`do $$ begin raise exception 'simulated' using errcode = ${sql.raw(`'${condition}'`)}; end $$`.execute(store.db);
          return names();
        },
        () => retries++,
      );
      expect({ attempts, retries, result }).toEqual({ attempts: 2, retries: 1, result: ['tx-attempt-2'] });
      await expect(
        sql`do $$ begin raise exception 'x' using errcode = ${sql.raw(`'${condition}'`)}; end $$`.execute(store.db),
      ).rejects.toMatchObject({ code });
    });

    it('does not retry other failures, nor inside a transaction it joined (the outermost owns retries)', async () => {
      let attempts = 0;
      const fail = () => {
        attempts++;
        return sql`do $$ begin raise exception 'x' using errcode = 'serialization_failure'; end $$`.execute(store.db);
      };
      await expect(transactionWithRetry(store.db, () => Promise.reject(Object.assign(new Error('no'), { code: '22P02' })))).rejects.toThrow(
        'no',
      );
      await expect(transaction(store.db, () => transactionWithRetry(store.db, fail))).rejects.toMatchObject({ code: '40001' });
      expect(attempts).toBe(1);
    });
  });
});
