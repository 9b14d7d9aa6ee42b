import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile } from '../compiler/compile.js';
import { duckdbDialect } from '../dialects/duckdb.js';
import { DuckDBWarehouse } from '../drivers/duckdb.js';
import { load } from '../load.js';
import type { Caller } from '../model.js';
import { planQuery } from './plan.js';

const ADMIN: Caller = { groups: ['admin'], userAttributes: {}, securityContext: {} };

/** Orders and their items, joined by the condition given; items with no order and orders with no items included. */
function model(joinSql: string, extraMeasure = ''): ReturnType<typeof compile>['model'] {
  const compiled = compile({
    'model/m.yml': `cubes:
  - name: orders
    sql_table: orders
    joins:
      - name: items
        relationship: one_to_many
        sql: "${joinSql}"
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true }
      - { name: status, sql: status, type: string }
    measures:
      - { name: count, type: count }
  - name: items
    sql_table: items
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true }
    measures:
      - { name: quantity, sql: qty, type: sum }
${extraMeasure}`,
  });
  if (!compiled.valid) throw new Error(JSON.stringify(compiled.errors));
  return compiled.model;
}

const QUERY = { measures: ['orders.count', 'items.quantity'], dimensions: ['orders.status'], order: { 'orders.status': 'asc' as const } };

describe('a pre-aggregated far side grouped by its own join column', () => {
  let warehouse: DuckDBWarehouse;
  beforeAll(async () => {
    warehouse = await DuckDBWarehouse.open();
    await warehouse.exec(`CREATE TABLE orders AS SELECT * FROM (VALUES (1, 'a'), (2, 'a'), (3, 'b')) AS t(id, status);
      CREATE TABLE items AS SELECT * FROM (VALUES (10, 1, 2), (11, 1, 3), (12, 2, -1), (13, 99, 100), (14, NULL, 7)) AS t(id, order_id, qty);`);
  });
  afterAll(async () => {
    await warehouse?.close();
  });

  it.each([
    { name: 'a plain key equality reads only the far cube', join: '{CUBE}.id = {items}.order_id', readsNear: false, a: '4' },
    { name: 'the key equality written the other way round', join: '{items}.order_id = {CUBE.id}', readsNear: false, a: '4' },
    {
      name: 'a join with a second condition keeps the near cube',
      join: '{CUBE}.id = {items}.order_id AND {items}.qty > 0',
      readsNear: true,
      a: '5',
    },
    {
      name: 'a join on an expression of the far cube keeps the near cube',
      join: '{CUBE}.id = {items}.order_id + 0',
      readsNear: true,
      a: '4',
    },
  ])('$name', async ({ join, readsNear, a }) => {
    const joined = model(join);
    const plan = planQuery(joined, QUERY, { dialect: duckdbDialect, caller: ADMIN });
    // Reading the near cube again is the inner join of orders and items inside the partials subquery.
    expect(plan.sql.includes('INNER JOIN items')).toBe(readsNear);
    const response = await load(joined, QUERY, { warehouse, caller: ADMIN });
    // Items 13 and 14 belong to no order and never count; order 3 has no items.
    expect(response.data).toEqual([
      { 'orders.status': 'a', 'orders.count': '2', 'items.quantity': a },
      { 'orders.status': 'b', 'orders.count': '1', 'items.quantity': null },
    ]);
  });
});
