import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Warehouses } from './warehouses.js';

const pgUrl = process.env.DATABASE_URL;

describe("data API: a deployment's warehouse as its CUBEJS_DB_* variables configure it (issue 14)", () => {
  let dir = '';
  let warehouses: Warehouses;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'plinth-warehouses-'));
    warehouses = new Warehouses(dir);
  });
  afterAll(async () => {
    await warehouses.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('without variables, the embedded DuckDB file of the deployment', async () => {
    const warehouse = await warehouses.get(1, 7);
    expect((await warehouse.query('select 41 + 1 as answer', [])).rows).toEqual([{ answer: 42 }]);
    expect(await warehouses.get(1, 7)).toBe(warehouse);
  });

  it.each([
    ['another account’s directory', (w: Warehouses) => join(w.accountDir(2), 'x.duckdb')],
    ['a file of the server', () => '/etc/passwd'],
    ['the data directory itself', (w: Warehouses) => w.pathOf(7)],
    ['a way out of the account’s directory', (w: Warehouses) => join(w.accountDir(1), '..', 'account-2', 'x.duckdb')],
  ])('a DuckDB path outside the account’s own directory is refused: %s', async (_what, pathOf) => {
    await expect(warehouses.get(1, 8, { type: 'duckdb', path: pathOf(warehouses) })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('CUBEJS_DB_DUCKDB_DATABASE_PATH must name a file under'),
    });
  });

  it('a DuckDB path inside the account’s directory is opened, and a change of variables opens the new one', async () => {
    const { mkdir } = await import('node:fs/promises');
    await mkdir(warehouses.accountDir(1), { recursive: true });
    const sales = { type: 'duckdb' as const, path: join(warehouses.accountDir(1), 'sales.duckdb') };
    await warehouses.write(1, 9, (w) => w.exec('create table if not exists t as select 1 as x'), sales);
    const first = await warehouses.get(1, 9, sales);
    expect((await first.query('select x from t', [])).rows).toEqual([{ x: 1 }]);
    const second = await warehouses.get(1, 9, { type: 'duckdb', path: join(warehouses.accountDir(1), 'other.duckdb') });
    expect(second).not.toBe(first);
  });

  it.skipIf(!pgUrl)('a PostgreSQL warehouse from host, port, database, user and password', async () => {
    const url = new URL(pgUrl!);
    const warehouse = await warehouses.get(1, 10, {
      type: 'postgres',
      host: url.hostname,
      port: Number(url.port || 5432),
      database: url.pathname.slice(1),
      user: decodeURIComponent(url.username),
      password: url.password ? decodeURIComponent(url.password) : null,
      ssl: false,
      poolSize: 2,
      statementTimeoutMs: 60_000,
    });
    expect((await warehouse.query('select 41 + 1 as answer', [])).rows).toEqual([{ answer: 42 }]);
  });
});
