import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { DuckDBWarehouse } from './duckdb.js';
import { StatementCache } from './duckdb-statements.js';

// DuckDB only: PostgreSQL has no statement cache in this driver.
describe('DuckDB prepared statement cache', () => {
  it('answers a repeated query with new parameters from the statement prepared the first time', async () => {
    const warehouse = await DuckDBWarehouse.open();
    try {
      const sql = 'SELECT CAST($1 AS BIGINT) * 2 AS doubled, CAST($2 AS VARCHAR) AS label';
      const answers = [];
      for (const n of [1, 2, 3]) answers.push((await warehouse.query(sql, [n, `n${n}`])).rows[0]);
      expect(answers.map((row) => [String(row?.['doubled']), row?.['label']])).toEqual([
        ['2', 'n1'],
        ['4', 'n2'],
        ['6', 'n3'],
      ]);
    } finally {
      await warehouse.close();
    }
  });

  it('gives each run the type of its own values when the SQL leaves a parameter uncast, as a fresh statement would', async () => {
    const sql = 'SELECT $1 AS v, typeof($1) AS t';
    const values = [7, 'seven', 7.5, true, null];
    const fresh = [];
    for (const value of values) {
      const single = await DuckDBWarehouse.open();
      fresh.push((await single.query(sql, [value])).rows[0]);
      await single.close();
    }
    const warehouse = await DuckDBWarehouse.open();
    try {
      const cached = [];
      for (const value of values) cached.push((await warehouse.query(sql, [value])).rows[0]);
      expect(cached).toEqual(fresh);
      expect(cached.map((row) => row?.['t'])).toEqual(['HUGEINT', 'VARCHAR', 'DOUBLE', 'BOOLEAN', '"NULL"']);
    } finally {
      await warehouse.close();
    }
  });

  it('sees a table replaced after the statement was prepared', async () => {
    const warehouse = await DuckDBWarehouse.open();
    try {
      await warehouse.exec("CREATE TABLE t AS SELECT 1 AS a, 'x' AS b");
      const sql = 'SELECT * FROM t WHERE a >= CAST($1 AS BIGINT)';
      expect((await warehouse.query(sql, [0])).rows).toEqual([{ a: 1, b: 'x' }]);
      await warehouse.exec("DROP TABLE t; CREATE TABLE t AS SELECT 5 AS a, 2.5 AS c, 'y' AS d");
      expect((await warehouse.query(sql, [0])).rows).toEqual([{ a: 5, c: '2.5', d: 'y' }]);
    } finally {
      await warehouse.close();
    }
  });

  it('keeps a failed statement out and the connection usable', async () => {
    const warehouse = await DuckDBWarehouse.open();
    try {
      const sql = 'SELECT 10 // CAST($1 AS INTEGER) AS q';
      await expect(warehouse.query('SELECT * FROM no_such_table', [])).rejects.toThrow(/no_such_table/);
      await expect(warehouse.query('SELECT CAST($1 AS INTEGER) AS n', ['not a number'])).rejects.toThrow(/not a number/);
      expect(String((await warehouse.query(sql, [5])).rows[0]?.['q'])).toBe('2');
    } finally {
      await warehouse.close();
    }
  });

  it('rejects several statements in one query, saying so, since one prepared statement holds one', async () => {
    const warehouse = await DuckDBWarehouse.open();
    try {
      await expect(warehouse.query('SELECT 1 AS a; SELECT 2 AS b', [])).rejects.toThrow(/multiple statements/);
      expect((await warehouse.query('SELECT 1 AS a;', [])).rows).toEqual([{ a: 1 }]);
    } finally {
      await warehouse.close();
    }
  });

  it('holds at most its capacity, dropping the least recently used statement', async () => {
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    try {
      const cache = new StatementCache(connection, 2);
      const run = async (sql: string): Promise<unknown> => {
        const statement = await cache.take(sql);
        const reader = await statement.runAndReadAll();
        cache.give(sql, statement);
        return reader.getRowObjectsJson()[0]?.['v'];
      };
      expect([await run('SELECT 1 AS v'), await run('SELECT 2 AS v'), await run('SELECT 1 AS v'), await run('SELECT 3 AS v')]).toEqual([
        1, 2, 1, 3,
      ]);
      expect(cache.size).toBe(2);
      // 'SELECT 2' was the least recently used: it is prepared afresh, 'SELECT 1' comes from the cache.
      const kept = await cache.take('SELECT 1 AS v');
      expect(cache.size).toBe(1);
      cache.give('SELECT 1 AS v', kept);
      expect(await run('SELECT 2 AS v')).toBe(2);
      expect(cache.size).toBe(2);
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  });
});
