import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBWarehouse, type RollupColumn } from '@plinth/semantic';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableRollups } from './manifest.js';
import { rollupFile, storedType, writePartition } from './storage.js';
import { partitionRow } from './test-fixtures.js';

const columns: RollupColumn[] = [
  { name: 'orders__status', type: 'string', role: 'dimension', member: 'orders.status' },
  { name: 'orders__created_at_day', type: 'time', role: 'time', member: 'orders.createdAt' },
  { name: 'orders__count', type: 'number', role: 'measure-part', member: 'orders.count', part: 'count' },
  { name: 'orders__amount_sum', type: 'number', role: 'measure-part', member: 'orders.amount', part: 'sum' },
  { name: 'orders__users', type: 'list', role: 'measure-part', member: 'orders.users', part: 'distinct_values' },
];

const partition = (name: string, file: string | null, version = 'v1') => partitionRow({ name, file, version });

describe('pre-aggregations: partitions stored as Parquet', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'plinth-rollup-storage-'));
  let duck: DuckDBWarehouse;
  beforeAll(async () => (duck = await DuckDBWarehouse.open()));
  afterAll(async () => {
    await duck.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('numbers keep the source’s exactness: integers, decimals at their scale, doubles', () => {
    const number = columns[2]!;
    expect(storedType(number, [1, '2', null])).toBe('BIGINT');
    expect(storedType(number, ['1.50', '2.125', 3])).toBe('DECIMAL(38, 3)');
    expect(storedType(number, [1.5, 2])).toBe('DOUBLE');
    expect(storedType(number, ['123456789012345678901'])).toBe('HUGEINT');
  });

  it('a partition is written under its final name only once complete, and reads back re-aggregated as the warehouse answered', async () => {
    const file = rollupFile(7, 3, 'orders.main', 'orders_main202401', 'abc');
    const written = await writePartition(duck, dataDir, file, columns, [
      {
        orders__status: 'new',
        orders__created_at_day: '2024-01-01 00:00:00',
        orders__count: '2',
        orders__amount_sum: '10.10',
        orders__users: [1, 2],
      },
      {
        orders__status: 'new',
        orders__created_at_day: new Date('2024-01-02T00:00:00Z'),
        orders__count: 1,
        orders__amount_sum: '0.05',
        orders__users: [2],
      },
      {
        orders__status: null,
        orders__created_at_day: '2024-01-03T00:00:00.000+00',
        orders__count: '1',
        orders__amount_sum: null,
        orders__users: [],
      },
    ]);
    expect(written.rows).toBe(3);
    expect(written.bytes).toBeGreaterThan(0);
    // Nothing but the finished file is left in the folder: no scratch rows, no temporary name.
    expect(readdirSync(join(dataDir, file, '..'))).toEqual(['orders_main202401.abc.parquet']);
    const empty = rollupFile(7, 3, 'orders.main', 'orders_main202402', 'def');
    expect(await writePartition(duck, dataDir, empty, columns, [])).toMatchObject({ rows: 0 });

    const [rollup] = availableRollups(
      dataDir,
      [partition('orders_main202401', file, 'abc'), partition('orders_main202402', empty, 'def')],
      () => columns,
    );
    expect(rollup).toMatchObject({ id: 'orders.main', versions: ['abc', 'def'] });
    const { rows } = await duck.query(
      `SELECT orders__status AS s, SUM(orders__count) AS n, SUM(orders__amount_sum) AS amount, MIN(orders__created_at_day) AS first
       FROM ${rollup!.from} GROUP BY 1 ORDER BY 1 NULLS LAST`,
      [],
    );
    expect(rows).toEqual([
      { s: 'new', n: '3', amount: '10.15', first: '2024-01-01 00:00:00' },
      { s: null, n: '1', amount: null, first: '2024-01-03 00:00:00' },
    ]);
    const users = await duck.query(`SELECT COUNT(DISTINCT u) AS users FROM ${rollup!.from}, UNNEST(orders__users) AS t(u)`, []);
    expect(users.rows).toEqual([{ users: '2' }]);
  });

  it('a rollup with a partition not built yet is not offered; one built empty everywhere reads as no rows', async () => {
    expect(availableRollups(dataDir, [partition('a', 'x.parquet'), { ...partition('b', null), version: null }], () => columns)).toEqual([]);
    const [rollup] = availableRollups(dataDir, [partition('a', null)], () => columns);
    expect((await duck.query(`SELECT count(*) AS n FROM ${rollup!.from}`, [])).rows).toEqual([{ n: '0' }]);
  });
});
