import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WarehouseUnavailableError } from '../errors.js';
import { holdDuckDBFile } from '../test-support/duckdb-holder.js';
import { DuckDBWarehouse } from './duckdb.js';

describe('DuckDB files opened read-only', () => {
  let dir = '';
  let file = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'plinth-duckdb-files-'));
    file = join(dir, 'shop.duckdb');
    const writer = await DuckDBWarehouse.open({ path: file });
    await writer.exec('CREATE TABLE numbers AS SELECT range AS n FROM range(100000)');
    await writer.close();
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('any number of handles answer together, while another process reads the file too, and none can write', async () => {
    const other = await holdDuckDBFile(file, { readOnly: true });
    const handles = await Promise.all([1, 2].map(() => DuckDBWarehouse.open({ path: file, readOnly: true })));
    try {
      const sql = 'SELECT count(*) AS pairs FROM numbers a JOIN numbers b ON a.n % 1000 = b.n % 1000 WHERE a.n < $1';
      const answers = await Promise.all(handles.map((handle, i) => handle.query(sql, [1000 * (i + 1)])));
      expect(answers.map((answer) => String(answer.rows[0]?.['pairs']))).toEqual(['100000', '200000']);
      await expect(handles[0]!.query('CREATE TABLE t AS SELECT 1 AS x', [])).rejects.toThrow(/read-only/);
    } finally {
      await Promise.all(handles.map((handle) => handle.close()));
      await other.release();
    }
  });

  it('while another process holds the file read-write, opening it fails with a message naming neither the file nor the process', async () => {
    const holder = await holdDuckDBFile(file);
    try {
      const refused = await DuckDBWarehouse.open({ path: file, readOnly: true }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(WarehouseUnavailableError);
      const { message, cause } = refused as WarehouseUnavailableError;
      expect(message).toBe('The warehouse is busy or cannot be opened; try again');
      expect(message).not.toContain(dir);
      expect(message).not.toContain(String(holder.pid));
      // The driver's own words, which the operator's log needs, stay on the cause.
      expect(String(cause)).toContain(file);
      expect(String(cause)).toContain(`PID ${holder.pid}`);
    } finally {
      await holder.release();
    }
    const reader = await DuckDBWarehouse.open({ path: file, readOnly: true });
    expect((await reader.query('SELECT count(*) AS n FROM numbers', [])).rows).toEqual([{ n: '100000' }]);
    await reader.close();
  });

  it('a file that does not exist is not created by a read-only open', async () => {
    const missing = join(dir, 'missing.duckdb');
    await expect(DuckDBWarehouse.open({ path: missing, readOnly: true })).rejects.toBeInstanceOf(WarehouseUnavailableError);
  });
});
