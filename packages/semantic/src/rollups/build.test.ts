import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile } from '../compiler/compile.js';
import type { DataModel } from '../model.js';
import { writeSample } from '../sample/sample.js';
import { compileRollupModel } from '../test-support/rollup-model.js';
import { sortedValues } from '../test-support/sample-warehouses.js';
import { warehouseTargets, type ScratchWarehouse } from '../test-support/warehouses.js';
import { refreshKeyPlan, rollupBuildPlan, rollupRangePlan } from './build.js';
import { rollupDefinitions } from './definitions.js';
import { rollupPartitions } from './partitions.js';
import type { RollupDefinition } from './types.js';

const model = compileRollupModel((name) => name);
const definition = (id: string): RollupDefinition => {
  const found = rollupDefinitions(model).find((candidate) => candidate.id === id);
  if (!found) throw new Error(`no ${id}`);
  return found;
};

describe('rollup definitions', () => {
  it('lists every pre-aggregation with its id, table name and columns in mergeable form', () => {
    expect(rollupDefinitions(model).map((rollup) => rollup.id)).toEqual([
      'orders.by_day',
      'orders.by_week',
      'orders.by_month_loose',
      'orders.year_2023',
      'orders.no_time',
      'orders.source_rows',
      'line_items.daily',
      'line_items.with_orders',
    ]);
    expect(definition('orders.by_day')).toMatchObject({
      tableName: 'orders_by_day',
      type: 'rollup',
      external: true,
      granularity: 'day',
      partitionGranularity: 'month',
      refreshKey: {
        every: '1 hour',
        everySeconds: 3600,
        hasSql: false,
        incremental: true,
        updateWindow: '7 day',
        updateWindowSeconds: 604800,
      },
      buildRange: { start: false, end: false },
    });
    expect(definition('orders.by_day').columns.map(({ name, role, part, type }) => [name, role, part ?? type])).toEqual([
      ['orders__status', 'dimension', 'string'],
      ['customers__country', 'dimension', 'string'],
      ['orders__created_at_day', 'time', 'time'],
      ['orders__completed', 'segment', 'boolean'],
      ['orders__count', 'measure-part', 'count'],
      ['orders__completed_count', 'measure-part', 'count'],
      ['orders__customer_count', 'measure-part', 'distinct_count'],
      ['orders__customer_count_approx', 'measure-part', 'distinct_values'],
    ]);
    expect(
      definition('line_items.daily')
        .columns.filter((column) => column.member === 'line_items.avg_price')
        .map((column) => column.name),
    ).toEqual(['line_items__avg_price__sum', 'line_items__avg_price__count']);
    expect(definition('orders.source_rows')).toMatchObject({ type: 'original_sql', columns: [] });
    expect(definition('line_items.with_orders')).toMatchObject({ type: 'rollup_join', rollups: ['line_items.daily', 'orders.no_time'] });
  });

  it('takes the cube’s refresh key when the pre-aggregation has none, else every hour', () => {
    const yaml = (cubeKey: string): string => `cubes:
  - name: orders
    sql_table: orders
    ${cubeKey}
    dimensions: [{ name: status, sql: status, type: string }]
    measures: [{ name: count, type: count }]
    pre_aggregations: [{ name: p, measures: [count], dimensions: [status] }]
`;
    const withKey = compile({ 'model/m.yml': yaml("refresh_key: { every: 5 minute, sql: 'SELECT max(id) FROM orders' }") });
    expect(withKey.errors).toEqual([]);
    expect(rollupDefinitions(withKey.model)[0]?.refreshKey).toEqual({
      every: '5 minute',
      everySeconds: 300,
      hasSql: true,
      incremental: false,
    });
    const without = compile({ 'model/m.yml': yaml('') });
    expect(rollupDefinitions(without.model)[0]?.refreshKey).toEqual({
      every: '1 hour',
      everySeconds: 3600,
      hasSql: false,
      incremental: false,
    });
  });
});

describe('rollup partitions', () => {
  it.each([
    [
      'orders.by_day',
      '2023-01-15T10:00:00.000',
      '2023-03-01T00:00:00.000',
      [
        ['orders_by_day202301', '2023-01-01', '2023-02-01'],
        ['orders_by_day202302', '2023-02-01', '2023-03-01'],
        ['orders_by_day202303', '2023-03-01', '2023-04-01'],
      ],
    ],
    [
      'line_items.daily',
      '2023-02-01',
      '2023-07-01T00:00:00',
      [
        ['line_items_daily202301', '2023-01-01', '2023-04-01'],
        ['line_items_daily202304', '2023-04-01', '2023-07-01'],
        ['line_items_daily202307', '2023-07-01', '2023-10-01'],
      ],
    ],
    [
      'orders.year_2023',
      '2023-01-01',
      '2024-12-31T23:59:59.999',
      [
        ['orders_year_20232023', '2023-01-01', '2024-01-01'],
        ['orders_year_20232024', '2024-01-01', '2025-01-01'],
      ],
    ],
    ['orders.by_week', '2023-01-01', '2024-12-31', [['orders_by_week', '2023-01-01', '2024-12-31']]],
  ])('%s over %s … %s', (id, start, end, expected) => {
    const partitions = rollupPartitions(definition(id), start, end);
    expect(partitions.map((partition) => [partition.name, partition.start.slice(0, 10), partition.end.slice(0, 10)])).toEqual(expected);
  });
});

describe.each(warehouseTargets({ schemaPrefix: 'semantic_rollup_build' }))('rollup build plans on $name', (target) => {
  let db: ScratchWarehouse;
  let source: DataModel;
  beforeAll(async () => {
    db = await target.open();
    await writeSample(db.warehouse, { lineItems: 2000, schema: db.schema });
    source = compileRollupModel(db.table);
  }, 60_000);
  afterAll(async () => {
    await db?.close();
  });
  const rows = async (plan: { sql: string; params: readonly unknown[] }): Promise<Array<Record<string, unknown>>> => [
    ...(await db.warehouse.query(plan.sql, plan.params)).rows,
  ];

  it('the partitions’ rows together are the whole rollup’s rows', async () => {
    const whole = await rows(rollupBuildPlan(source, 'orders.by_day', db.warehouse.dialect));
    const [range] = await rows(rollupRangePlan(source, 'orders.by_day', db.warehouse.dialect));
    const wall = (value: unknown): string => String(value).replace(' ', 'T').slice(0, 19);
    const partitions = rollupPartitions(definition('orders.by_day'), wall(range?.['start']), wall(range?.['end']));
    expect(partitions.length).toBeGreaterThan(12);
    const parts = [];
    for (const partition of partitions)
      parts.push(...(await rows(rollupBuildPlan(source, 'orders.by_day', db.warehouse.dialect, partition))));
    expect(whole.length).toBeGreaterThan(0);
    const comparable = (list: Array<Record<string, unknown>>): string[] =>
      sortedValues(
        list.map((row) => ({
          ...row,
          orders__customer_count_approx: [...(row['orders__customer_count_approx'] as unknown[])].map(String).sort(),
        })),
      );
    expect(comparable(parts)).toEqual(comparable(whole));
    const [counted] = await rows({ sql: `SELECT count(*) AS n FROM ${db.table('orders')}`, params: [] });
    expect(parts.reduce((sum, row) => sum + Number(row['orders__count']), 0)).toBe(Number(counted?.['n']));
  });

  it('a build range comes from its SQL; without one, from the time dimension in the rollup’s time zone', async () => {
    const [own] = await rows(rollupRangePlan(source, 'orders.year_2023', db.warehouse.dialect));
    expect(String(own?.['start'])).toMatch(/^2023-01-01[ T]00:00:00/);
    expect(String(own?.['end'])).toMatch(/^2023-12-31[ T]23:59:59/);
    const [utc] = await rows(rollupRangePlan(source, 'orders.by_day', db.warehouse.dialect));
    const [newYork] = await rows(rollupRangePlan(source, 'orders.by_day', db.warehouse.dialect, { timezone: 'America/New_York' }));
    const [raw] = await rows({ sql: `SELECT min(created_at) AS start FROM ${db.table('orders')}`, params: [] });
    expect(String(utc?.['start']).slice(0, 19)).toBe(String(raw?.['start']).replace('T', ' ').slice(0, 19));
    expect(
      Date.parse(`${String(utc?.['start']).slice(0, 19).replace(' ', 'T')}Z`) -
        Date.parse(`${String(newYork?.['start']).slice(0, 19).replace(' ', 'T')}Z`),
    ).toBe(5 * 3600_000);
  });

  it('a refresh key’s SQL gives one value; a cube without one has none', async () => {
    const yaml = `cubes:
  - name: orders
    sql_table: '${db.table('orders')}'
    refresh_key: { sql: 'SELECT max(id) FROM ${db.table('orders')}' }
    dimensions: [{ name: status, sql: status, type: string }, { name: created_at, sql: created_at, type: time }]
    measures: [{ name: count, type: count }]
    pre_aggregations:
      - { name: inherits, measures: [count] }
      - { name: own, measures: [count], refresh_key: { sql: 'SELECT count(*) FROM ${db.table('orders')} WHERE status = ''completed''' } }
      - { name: timed, measures: [count], refresh_key: { every: 1 day } }
      - name: per_partition
        measures: [count]
        time_dimension: created_at
        granularity: day
        partition_granularity: month
        refresh_key:
          sql: "SELECT count(*) FROM ${db.table('orders').replace(/"/g, '\\"')} WHERE {FILTER_PARAMS.orders.created_at.filter('created_at')}"
`;
    const compiled = compile({ 'model/m.yml': yaml });
    expect(compiled.errors).toEqual([]);
    const value = async (id: string): Promise<string> => {
      const plan = refreshKeyPlan(compiled.model, id, db.warehouse.dialect);
      if (!plan) throw new Error(`no refresh key for ${id}`);
      return String((await rows(plan))[0]?.['value']);
    };
    const [max] = await rows({ sql: `SELECT max(id) AS v FROM ${db.table('orders')}`, params: [] });
    expect(await value('orders')).toBe(String(max?.['v']));
    expect(await value('orders.inherits')).toBe(String(max?.['v']));
    expect(Number(await value('orders.own'))).toBeLessThan(Number(max?.['v']));
    expect(refreshKeyPlan(compiled.model, 'orders.timed', db.warehouse.dialect)).toBeUndefined();
    const march = refreshKeyPlan(compiled.model, 'orders.per_partition', db.warehouse.dialect, {
      start: '2023-03-01T00:00:00.000',
      end: '2023-04-01T00:00:00.000',
    });
    const [inMarch] = await rows({
      sql: `SELECT count(*) AS n FROM ${db.table('orders')} WHERE created_at >= TIMESTAMP '2023-03-01' AND created_at < TIMESTAMP '2023-04-01'`,
      params: [],
    });
    expect(march && String((await rows(march))[0]?.['value'])).toBe(String(inMarch?.['n']));
    expect(Number(inMarch?.['n'])).toBeGreaterThan(0);
    expect(Number(inMarch?.['n'])).toBeLessThan(Number(max?.['v']));
    expect(refreshKeyPlan(model, 'customers', db.warehouse.dialect)).toBeUndefined();
  });

  it('an original_sql pre-aggregation is the cube’s rows as they are', async () => {
    const built = await rows(rollupBuildPlan(source, 'orders.source_rows', db.warehouse.dialect));
    const [counted] = await rows({ sql: `SELECT count(*) AS n FROM ${db.table('orders')}`, params: [] });
    expect(built.length).toBe(Number(counted?.['n']));
    expect(Object.keys(built[0] ?? {}).sort()).toEqual(['created_at', 'customer_id', 'id', 'status']);
  });
});
