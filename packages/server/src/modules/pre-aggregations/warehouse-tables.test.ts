import { describe, expect, it } from 'vitest';
import type { RollupColumn } from '@plinth/semantic';
import { availableRollups } from './manifest.js';
import { partitionRow } from './test-fixtures.js';
import { quotedTable, warehouseFrom, warehouseTable } from './warehouse-tables.js';

const columns: RollupColumn[] = [
  { name: 'orders__status', type: 'string', role: 'dimension', member: 'orders.status' },
  { name: 'orders__count', type: 'number', role: 'measure-part', member: 'orders.count', part: 'count' },
];

describe('tables of rollups kept in the source warehouse', () => {
  it('are named from the partition and version in safe identifiers, at most 63 characters, whatever the model names', () => {
    expect(warehouseTable('orders_by_day202401', '0a1b2c3d4e')).toBe('prod_pre_aggregations.orders_by_day202401_0a1b2c3d4e');
    expect(warehouseTable('Orders"; DROP TABLE x; --', 'ff')).toBe('prod_pre_aggregations.orders___drop_table_x_____ff');
    expect(warehouseTable('2024_cube', 'ab')).toBe('prod_pre_aggregations._2024_cube_ab');
    const long = warehouseTable('a'.repeat(100), '0123456789');
    expect(long.split('.')[1]).toHaveLength(63);
    expect(long.endsWith('_0123456789')).toBe(true);
    expect(() => warehouseTable('orders', 'x"; --')).toThrow(/not hexadecimal/);
  });

  it('reach SQL quoted, and a manifest value that is not two safe identifiers is refused', () => {
    expect(quotedTable('prod_pre_aggregations.orders_ab')).toBe('"prod_pre_aggregations"."orders_ab"');
    for (const bad of ['orders_ab', 'a.b.c', 'prod_pre_aggregations.x"; DROP TABLE y; --', 'Prod.x', `s.${'a'.repeat(64)}`]) {
      expect(() => quotedTable(bad), bad).toThrow(/is not a pre-aggregation table name/);
    }
  });

  it('are offered to the planner as the source’s FROM over every partition’s table, named in usedPreAggregations', () => {
    expect(warehouseFrom(['s.a'], columns)).toBe('"s"."a"');
    expect(warehouseFrom(['s.a', 's.b'], columns)).toBe(
      '(SELECT "orders__status", "orders__count" FROM "s"."a"\nUNION ALL\nSELECT "orders__status", "orders__count" FROM "s"."b")',
    );
    const row = (name: string, table: string, start: string, end: string) =>
      partitionRow({
        name,
        range_start: start,
        range_end: end,
        version: table.slice(-2),
        warehouse_table: table,
        row_count: 1,
        bytes: null,
        built_at: new Date('2024-03-01T00:00:00Z'),
      });
    const [rollup] = availableRollups(
      '/data',
      [
        row('orders_main202401', 'prod_pre_aggregations.orders_main202401_aa', '2024-01-01T00:00:00.000', '2024-02-01T00:00:00.000'),
        row('orders_main202402', 'prod_pre_aggregations.orders_main202402_bb', '2024-02-01T00:00:00.000', '2024-03-01T00:00:00.000'),
      ],
      () => columns,
    );
    expect(rollup).toEqual({
      id: 'orders.main',
      inWarehouse: true,
      from: expect.stringContaining('FROM "prod_pre_aggregations"."orders_main202402_bb"'),
      targetTableName: 'prod_pre_aggregations.orders_main202401_aa',
      versions: ['aa', 'bb'],
      lastUpdatedAt: Date.parse('2024-03-01T00:00:00Z'),
      covers: { start: '2024-01-01T00:00:00.000', end: '2024-03-01T00:00:00.000' },
    });
  });
});
