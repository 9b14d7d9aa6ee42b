import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdDuckDBFile } from '../../../../semantic/src/test-support/duckdb-holder.js';
import { Warehouses } from './warehouses.js';

const BUSY = 'The warehouse is busy or cannot be opened; try again';

describe("data API: a deployment's DuckDB file is only read, and written by replacing it", () => {
  let dir = '';
  let warehouses: Warehouses;
  const log: string[] = [];
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'plinth-duckdb-file-'));
    warehouses = new Warehouses(dir, undefined, (line) => log.push(line));
  });
  afterAll(async () => {
    await warehouses.close();
    await rm(dir, { recursive: true, force: true });
  });
  const rowsOf = async (deploymentId: number, sql: string) => (await (await warehouses.get(1, deploymentId)).query(sql, [])).rows;

  it('a file nobody wrote yet is an empty database, and reading it creates nothing', async () => {
    expect(await rowsOf(1, 'select 42 as answer')).toEqual([{ answer: 42 }]);
    expect(existsSync(join(dir, 'warehouses'))).toBe(false);
  });

  it('a write is seen from the next query on, by a reader holding the file before; a statement that writes is refused', async () => {
    await warehouses.write(1, 2, (w) => w.exec('create table t as select 1 as n'));
    const reader = await warehouses.get(1, 2);
    expect((await reader.query('select n from t', [])).rows).toEqual([{ n: 1 }]);
    await expect(reader.query('insert into t values (2)', [])).rejects.toThrow(/read-only/);

    // A query that runs until the test writes to a pipe: it is still running on the old file when the new one comes.
    // Without detection, DuckDB opens the pipe once, when the query runs, not when it is prepared.
    const pipe = join(dir, 'pipe');
    execFileSync('mkfifo', [pipe]);
    const sql = `select count(*) as c from read_csv('${pipe}', columns = {'v': 'INTEGER'}, header = false, auto_detect = false)`;
    const running = reader.query(sql, []);
    try {
      await warehouses.write(1, 2, (w) => w.exec('insert into t values (2)'));
      expect(await warehouses.get(1, 2)).toBe(reader);
      expect((await reader.query('select n from t order by n', [])).rows).toEqual([{ n: 1 }, { n: 2 }]);
    } finally {
      await writeFile(pipe, '1\n2\n3\n');
    }
    expect((await running).rows).toEqual([{ c: '3' }]);
    await rm(pipe);
    // Only the file: no draft or log is left beside it.
    expect(await readdir(join(dir, 'warehouses'))).toEqual(['2.duckdb']);
  });

  it('a write that fails leaves the file as it was', async () => {
    await expect(
      warehouses.write(1, 2, async (w) => {
        await w.exec('insert into t values (3)');
        throw new Error('the writer gave up');
      }),
    ).rejects.toThrow('the writer gave up');
    expect(await rowsOf(2, 'select n from t order by n')).toEqual([{ n: 1 }, { n: 2 }]);
    expect(await readdir(join(dir, 'warehouses'))).toEqual(['2.duckdb']);
  });

  it('writes of one file in one process follow one another: none is lost', async () => {
    await Promise.all([4, 5, 6].map((n) => warehouses.write(1, 3, (w) => w.exec(`create or replace table t${n} as select ${n} as n`))));
    expect(await rowsOf(3, 'select * from t4 union all select * from t5 union all select * from t6 order by 1')).toEqual([
      { n: 4 },
      { n: 5 },
      { n: 6 },
    ]);
  });

  it('a file another process holds read-write: refused without its path or the pid, which go to the log; opened once let go', async () => {
    await warehouses.write(1, 4, (w) => w.exec('create table t as select 1 as n'));
    const holder = await holdDuckDBFile(warehouses.pathOf(4));
    try {
      const refused = await warehouses.get(1, 4).catch((error: Error) => error);
      expect(refused).toMatchObject({ name: 'WarehouseUnavailableError', message: BUSY });
    } finally {
      await holder.release();
    }
    expect(log).toEqual([expect.stringMatching(/^deployment 4: its DuckDB file cannot be opened: /)]);
    expect(log[0]).toContain(warehouses.pathOf(4));
    expect(log[0]).toContain(`PID ${holder.pid}`);
    expect(await rowsOf(4, 'select n from t')).toEqual([{ n: 1 }]);
  });

  it('a new file another process holds read-write fails the query that finds it, and the next one after reads it', async () => {
    log.length = 0;
    await warehouses.write(1, 5, (w) => w.exec('create table t as select 1 as n'));
    const reader = await warehouses.get(1, 5);
    await warehouses.write(1, 5, (w) => w.exec('insert into t values (2)'));
    const holder = await holdDuckDBFile(warehouses.pathOf(5));
    try {
      await expect(reader.query('select n from t', [])).rejects.toMatchObject({ name: 'WarehouseUnavailableError', message: BUSY });
    } finally {
      await holder.release();
    }
    expect(log).toEqual([expect.stringContaining(`PID ${holder.pid}`)]);
    expect((await reader.query('select n from t order by n', [])).rows).toEqual([{ n: 1 }, { n: 2 }]);
  });
});
