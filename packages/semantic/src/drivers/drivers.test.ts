import { describe, expect, it } from 'vitest';
import { QueryTimeoutError } from '../errors.js';
import { DuckDBWarehouse } from './duckdb.js';
import { PostgresWarehouse } from './postgres.js';
import type { Warehouse } from './warehouse.js';

const SLOW: Record<string, string> = {
  duckdb: 'SELECT count(*) FROM range(100000000000) a',
  postgres: 'SELECT pg_sleep(10)',
};

const targets: Array<{ name: string; open: () => Promise<Warehouse> }> = [{ name: 'duckdb', open: () => DuckDBWarehouse.open() }];
const url = process.env['DATABASE_URL'];
if (url) targets.push({ name: 'postgres', open: async () => new PostgresWarehouse({ connectionString: url, max: 2 }) });

describe.each(targets)('$name driver', ({ name, open }) => {
  it('binds parameters and returns rows', async () => {
    const w = await open();
    try {
      const { rows } = await w.query(
        `SELECT ${w.dialect.castParam(w.dialect.param(1), 'string')} AS s, ${w.dialect.castParam(w.dialect.param(2), 'integer')} AS n`,
        ["it's", 42],
      );
      expect(rows).toEqual([{ s: "it's", n: expect.anything() }]);
      expect(String(rows[0]?.['n'])).toBe('42');
    } finally {
      await w.close();
    }
  });

  it('gives up after the timeout, cancels, and stays usable', async () => {
    const w = await open();
    try {
      await expect(w.query(SLOW[name] ?? '', [], { timeoutMs: 200 })).rejects.toBeInstanceOf(QueryTimeoutError);
      const { rows } = await w.query('SELECT 1 AS one', []);
      expect(String(rows[0]?.['one'])).toBe('1');
    } finally {
      await w.close();
    }
  });

  it('stops when the caller aborts', async () => {
    const w = await open();
    try {
      const controller = new AbortController();
      const running = w.query(SLOW[name] ?? '', [], { signal: controller.signal });
      setImmediate(() => controller.abort());
      await expect(running).rejects.toBeInstanceOf(QueryTimeoutError);
      // Whenever the abort lands (before the statement starts or while it runs), nothing keeps running.
      const { rows } = await w.query('SELECT 1 AS one', []);
      expect(String(rows[0]?.['one'])).toBe('1');
    } finally {
      await w.close();
    }
  });
});
