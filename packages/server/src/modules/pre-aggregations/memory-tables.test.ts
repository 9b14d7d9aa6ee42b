import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBWarehouse, type AvailableRollup, type RollupColumn } from '@plinth/semantic';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryTables } from './memory-tables.js';
import { literal, rollupFile, writePartition } from './storage.js';

const columns: RollupColumn[] = [
  { name: 'orders__status', type: 'string', role: 'dimension', member: 'orders.status' },
  { name: 'orders__count', type: 'number', role: 'measure-part', member: 'orders.count', part: 'count' },
  { name: 'orders__amount_sum', type: 'number', role: 'measure-part', member: 'orders.amount', part: 'sum' },
];

const GRACE_MS = 60_000;

describe('pre-aggregations: in-memory copies of the rollups a process reads', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'plinth-rollup-memory-'));
  let duck: DuckDBWarehouse;
  let clock = 0;
  let tables: MemoryTables;
  beforeAll(async () => {
    duck = await DuckDBWarehouse.open();
    tables = new MemoryTables(
      async () => duck,
      GRACE_MS,
      1_000_000,
      () => clock,
    );
  });
  afterAll(async () => {
    await duck.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** A rollup of one partition version holding `rows`. */
  async function version(name: string, rows: Array<Record<string, unknown>>): Promise<AvailableRollup> {
    const file = rollupFile(1, 1, 'orders.main', 'orders_main202401', name);
    await writePartition(duck, dataDir, file, columns, rows);
    return { id: 'orders.main', from: `read_parquet([${literal(join(dataDir, file))}], union_by_name = true)`, versions: [name] };
  }
  const totals = async (rollup: AvailableRollup) =>
    (
      await duck.query(
        `SELECT orders__status AS s, sum(orders__count) AS n, sum(orders__amount_sum) AS amount FROM ${rollup.from} GROUP BY 1 ORDER BY 1`,
        [],
      )
    ).rows;
  const tableCount = async () =>
    (await duck.query(`SELECT count(*) AS n FROM duckdb_tables() WHERE table_name LIKE 'plinth_rollup_%'`, [])).rows[0]!['n'];

  it('reads the files until the copy is made, then the copy, with the same rows and types', async () => {
    const first = await version('aaa', [
      { orders__status: 'new', orders__count: 2, orders__amount_sum: '10.25' },
      { orders__status: 'paid', orders__count: 1, orders__amount_sum: '3.10' },
    ]);
    const [before] = tables.serve([first], () => 100);
    expect(before).toBe(first);
    await tables.settled();
    const [after] = tables.serve([first], () => 100);
    expect(after!.from).toMatch(/^plinth_rollup_\d+$/);
    expect(after).toMatchObject({ id: 'orders.main', versions: ['aaa'] });
    expect(await totals(after!)).toEqual(await totals(first));
    expect(await totals(after!)).toEqual([
      { s: 'new', n: '2', amount: '10.25' },
      { s: 'paid', n: '1', amount: '3.10' },
    ]);
  });

  it('a refreshed partition is read from its own copy at once; the old copy goes only after a grace period without queries', async () => {
    const old = await version('old', [
      { orders__status: 'new', orders__count: 1, orders__amount_sum: '1.00' },
      { orders__status: 'paid', orders__count: 1, orders__amount_sum: '1.00' },
    ]);
    tables.serve([old], () => 100);
    await tables.settled();
    const [oldCopy] = tables.serve([old], () => 100);
    expect(oldCopy!.from).toMatch(/^plinth_rollup_\d+$/);
    const refreshed = await version('bbb', [{ orders__status: 'new', orders__count: 5, orders__amount_sum: '1.00' }]);
    // Never the old rows: the new version is read from its files until its own copy is made.
    const [served] = tables.serve([refreshed], () => 100);
    expect(served).toBe(refreshed);
    expect(await totals(served!)).toEqual([{ s: 'new', n: '5', amount: '1.00' }]);
    await tables.settled();
    const [copied] = tables.serve([refreshed], () => 100);
    expect(copied!.from).not.toBe(oldCopy!.from);
    expect(await totals(copied!)).toEqual([{ s: 'new', n: '5', amount: '1.00' }]);

    // A query planned on the old copy just before the switch still finds it within the grace period.
    clock += GRACE_MS - 1;
    tables.serve([refreshed], () => 100);
    await tables.settled();
    expect(await totals(oldCopy!)).toHaveLength(2);
    // The first test's copy, the old one and the new one.
    expect(await tableCount()).toBe('3');
    // Swept at most a quarter of the grace period later.
    clock += GRACE_MS / 4;
    tables.serve([refreshed], () => 100);
    await tables.settled();
    await expect(totals(oldCopy!)).rejects.toThrow(/does not exist/);
    expect(await tableCount()).toBe('1');
  });

  it('a rollup past the budget, one without files and one in the warehouse are read as offered', async () => {
    const big = await version('ccc', [{ orders__status: 'new', orders__count: 1, orders__amount_sum: '1.00' }]);
    const inWarehouse: AvailableRollup = { id: 'orders.kept', from: 'rollups.orders_kept', versions: ['x'], inWarehouse: true };
    const empty: AvailableRollup = { id: 'orders.empty', from: '(SELECT 1 WHERE false)', versions: ['y'] };
    const offered = [big, inWarehouse, empty];
    const bytes = (rollup: AvailableRollup) => (rollup === big ? 2_000_000 : rollup === empty ? undefined : 100);
    expect(tables.serve(offered, bytes)).toEqual(offered);
    await tables.settled();
    expect(tables.serve(offered, bytes)).toEqual(offered);
  });

  it('a copy that cannot be made leaves the rollup read from its files', async () => {
    const gone: AvailableRollup = {
      id: 'orders.gone',
      from: `read_parquet(${literal(join(dataDir, 'missing.parquet'))})`,
      versions: ['z'],
    };
    tables.serve([gone], () => 100);
    await tables.settled();
    expect(tables.serve([gone], () => 100)).toEqual([gone]);
  });
});
