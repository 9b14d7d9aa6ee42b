import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile } from './compiler/compile.js';
import { QueryError } from './errors.js';
import { load } from './load.js';
import type { Caller, DataModel } from './model.js';
import type { Query } from './planner/query.js';
import { normalizeRows, sampleTargets, sortedValues, type SampleDb } from './test-support/sample-warehouses.js';

const ADMIN: Caller = { groups: ['admin'], userAttributes: {}, securityContext: {} };

/** Buyers (the sample customers) with dimensions computed from their purchases (the sample orders). */
function buyersModel(db: SampleDb): DataModel {
  const compiled = compile({
    'model/buyers.yml': `cubes:
  - name: buyers
    sql_table: '${db.table('customers')}'
    joins:
      - name: purchases
        relationship: one_to_many
        sql: "{CUBE}.id = {purchases}.customer_id"
    dimensions:
      - name: id
        sql: id
        type: number
        primary_key: true
      - name: country
        sql: country
        type: string
      - name: purchase_count
        sql: "{purchases.count}"
        type: number
        sub_query: true
      - name: completed_purchase_count
        sql: "{purchases.count}"
        type: number
        sub_query: true
        propagate_filters_to_sub_query: true
    measures:
      - name: count
        type: count
  - name: purchases
    sql_table: '${db.table('orders')}'
    dimensions:
      - name: id
        sql: id
        type: number
        primary_key: true
      - name: status
        sql: status
        type: string
      - name: created_at
        sql: created_at
        type: time
    measures:
      - name: count
        type: count
      - name: weekly_count
        type: count
        rolling_window:
          trailing: 7 day
    segments:
      # Not status: the sample gives all of a customer's orders one status, which would hide a segment left out.
      - name: even
        sql: "{CUBE}.id % 2 = 0"
    access_policy:
      - group: admin
      - group: "*"
        row_level:
          filters:
            - { member: status, operator: equals, values: [completed] }
`,
  });
  if (!compiled.valid) throw new Error(JSON.stringify(compiled.errors));
  return compiled.model;
}

const CASES: Array<{ name: string; query: Query; sql: (t: (name: string) => string) => string }> = [
  {
    name: 'a sub_query dimension groups the outer query',
    query: { measures: ['buyers.count'], dimensions: ['buyers.purchase_count'] },
    sql: (t) => `SELECT n, count(*) FROM (SELECT c.id, count(o.id) AS n FROM ${t('customers')} c
      LEFT JOIN ${t('orders')} o ON o.customer_id = c.id GROUP BY 1) AS per_customer GROUP BY 1`,
  },
  {
    name: 'a sub_query dimension beside a plain one, filtered on its value',
    query: {
      measures: ['buyers.count'],
      dimensions: ['buyers.country', 'buyers.purchase_count'],
      filters: [{ member: 'buyers.purchase_count', operator: 'gte', values: ['12'] }],
    },
    sql: (t) => `SELECT country, n, count(*) FROM (SELECT c.id, c.country, count(o.id) AS n FROM ${t('customers')} c
      LEFT JOIN ${t('orders')} o ON o.customer_id = c.id GROUP BY 1, 2) AS per_customer WHERE n >= 12 GROUP BY 1, 2`,
  },
  {
    // Filters on the order id, not its status: the sample gives all of a customer's orders one status.
    name: 'without propagation the subquery counts every purchase',
    query: {
      measures: ['buyers.count'],
      dimensions: ['buyers.purchase_count'],
      filters: [{ member: 'purchases.id', operator: 'lt', values: ['1500'] }],
    },
    sql: (t) => `SELECT n, count(*) FROM (SELECT c.id, count(o.id) AS n FROM ${t('customers')} c
      LEFT JOIN ${t('orders')} o ON o.customer_id = c.id GROUP BY 1) AS per_customer
      WHERE id IN (SELECT customer_id FROM ${t('orders')} WHERE id < 1500) GROUP BY 1`,
  },
  {
    name: 'with propagate_filters_to_sub_query the filter applies inside the subquery too',
    query: {
      measures: ['buyers.count'],
      dimensions: ['buyers.completed_purchase_count'],
      filters: [{ member: 'purchases.id', operator: 'lt', values: ['1500'] }],
    },
    sql: (t) => `SELECT n, count(*) FROM (SELECT c.id, count(o.id) AS n FROM ${t('customers')} c
      JOIN ${t('orders')} o ON o.customer_id = c.id WHERE o.id < 1500 GROUP BY 1) AS per_customer GROUP BY 1`,
  },
  {
    name: 'a filter on another sub_query dimension is not taken into the subquery, whose result it reads',
    query: {
      measures: ['buyers.count'],
      dimensions: ['buyers.completed_purchase_count'],
      filters: [{ member: 'buyers.purchase_count', operator: 'gte', values: ['12'] }],
    },
    sql: (t) => `SELECT n, count(*) FROM (SELECT c.id, count(o.id) AS n FROM ${t('customers')} c
      LEFT JOIN ${t('orders')} o ON o.customer_id = c.id GROUP BY 1) AS per_customer WHERE n >= 12 GROUP BY 1`,
  },
  {
    name: 'with propagate_filters_to_sub_query a date range on the subquery’s cube applies inside it too, as in Cube',
    query: {
      measures: ['buyers.count'],
      dimensions: ['buyers.completed_purchase_count'],
      timeDimensions: [{ dimension: 'purchases.created_at', dateRange: ['2023-01-01', '2023-03-31'] }],
    },
    sql: (t) => `SELECT n, count(*) FROM (SELECT c.id, count(o.id) AS n FROM ${t('customers')} c
      JOIN ${t('orders')} o ON o.customer_id = c.id
      WHERE o.created_at >= TIMESTAMP '2023-01-01' AND o.created_at < TIMESTAMP '2023-04-01' GROUP BY 1) AS per_customer GROUP BY 1`,
  },
  {
    name: 'without propagation the date range only picks the buyers',
    query: {
      measures: ['buyers.count'],
      dimensions: ['buyers.purchase_count'],
      timeDimensions: [{ dimension: 'purchases.created_at', dateRange: ['2023-01-01', '2023-03-31'] }],
    },
    sql: (t) => `SELECT n, count(*) FROM (SELECT c.id, count(o.id) AS n FROM ${t('customers')} c
      LEFT JOIN ${t('orders')} o ON o.customer_id = c.id GROUP BY 1) AS per_customer
      WHERE id IN (SELECT customer_id FROM ${t('orders')} WHERE created_at >= TIMESTAMP '2023-01-01' AND created_at < TIMESTAMP '2023-04-01')
      GROUP BY 1`,
  },
  {
    name: 'with propagate_filters_to_sub_query a segment of the subquery’s cube applies inside it too, as in Cube',
    query: { measures: ['buyers.count'], dimensions: ['buyers.completed_purchase_count'], segments: ['purchases.even'] },
    sql: (t) => `SELECT n, count(*) FROM (SELECT c.id, count(o.id) AS n FROM ${t('customers')} c
      JOIN ${t('orders')} o ON o.customer_id = c.id WHERE o.id % 2 = 0 GROUP BY 1) AS per_customer GROUP BY 1`,
  },
];

describe.each(sampleTargets())('sub_query dimensions on $name', (target) => {
  let db: SampleDb;
  let model: DataModel;
  beforeAll(async () => {
    db = await target.open();
    model = buyersModel(db);
  });
  afterAll(async () => {
    await db?.close();
  });

  it.each(CASES)('$name', async ({ query, sql }) => {
    const keys = [...(query.dimensions ?? []), ...(query.measures ?? [])];
    const response = await load(model, query, { warehouse: db.warehouse, caller: ADMIN });
    const engine = normalizeRows(response.data.map((row) => Object.fromEntries(keys.map((key) => [key, row[key]]))));
    const columns = keys.map((_, index) => `c${index}`).join(', ');
    const direct = (await db.warehouse.query(`SELECT * FROM (${sql(db.table)}) AS direct(${columns})`, [])).rows;
    const expected = normalizeRows(
      direct.map((row) => Object.fromEntries(Object.values(row).map((value, index) => [keys[index] ?? `c${index}`, value]))),
    );
    const sorted = (rows: Array<Record<string, unknown>>): Array<Record<string, unknown>> =>
      [...rows].sort((left, right) => (JSON.stringify(left) < JSON.stringify(right) ? -1 : 1));
    expect(expected.length).toBeGreaterThan(0);
    expect(sorted(engine)).toEqual(sorted(expected));
  });

  it('reads only the rows the access policies of the subquery’s cubes let the caller see', async () => {
    const everyone: Caller = { groups: [], userAttributes: {}, securityContext: {} };
    const perBuyer = (where: string): string => `SELECT n, count(*) FROM (SELECT c.id, count(o.id) AS n FROM ${db.table('customers')} c
      LEFT JOIN ${db.table('orders')} o ON o.customer_id = c.id ${where} GROUP BY 1) AS per_buyer GROUP BY 1`;
    const answer = async (dimension: string, who: Caller): Promise<string[]> =>
      sortedValues(
        (await load(model, { measures: ['buyers.count'], dimensions: [dimension] }, { warehouse: db.warehouse, caller: who })).data,
      );
    const completedOnly = sortedValues((await db.warehouse.query(perBuyer("AND o.status = 'completed'"), [])).rows);
    expect(await answer('buyers.purchase_count', everyone)).toEqual(completedOnly);
    expect(await answer('buyers.completed_purchase_count', everyone)).toEqual(completedOnly);
    // The admin's policy opens every row, so the same dimension then counts every purchase.
    expect(await answer('buyers.purchase_count', ADMIN)).toEqual(sortedValues((await db.warehouse.query(perBuyer(''), [])).rows));
    expect(completedOnly).not.toEqual(await answer('buyers.purchase_count', ADMIN));
  });

  it('refuses a sub_query dimension beside a rolling window measure, naming the dimension', async () => {
    const query: Query = {
      dimensions: ['buyers.purchase_count'],
      measures: ['purchases.weekly_count'],
      timeDimensions: [{ dimension: 'purchases.created_at', granularity: 'day', dateRange: ['2023-01-01', '2023-01-07'] }],
    };
    await expect(load(model, query, { warehouse: db.warehouse, caller: ADMIN })).rejects.toThrow(
      new QueryError('A sub_query dimension (buyers.purchase_count) cannot be combined with rolling_window measures in one query yet'),
    );
  });

  it('refuses a sub_query dimension on a cube without a primary key', async () => {
    const compiled = compile({
      'model/m.yml': `cubes:
  - name: keyless
    sql_table: '${db.table('customers')}'
    joins:
      - name: purchases
        relationship: one_to_many
        sql: "{CUBE}.id = {purchases}.customer_id"
    dimensions:
      - name: purchase_count
        sql: "{purchases.count}"
        type: number
        sub_query: true
  - name: purchases
    sql_table: '${db.table('orders')}'
    measures:
      - name: count
        type: count
`,
    });
    await expect(
      load(compiled.model, { dimensions: ['keyless.purchase_count'] }, { warehouse: db.warehouse, caller: ADMIN }),
    ).rejects.toThrow(
      new QueryError('sub_query dimension keyless.purchase_count needs a primary key on cube keyless to join its subquery back'),
    );
  });
});
