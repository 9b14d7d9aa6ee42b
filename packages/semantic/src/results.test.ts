import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { load } from './load.js';
import type { Caller } from './model.js';
import type { Query } from './planner/query.js';
import { normalizeRows, sampleTargets, type SampleDb } from './test-support/sample-warehouses.js';

const ADMIN: Caller = { groups: ['admin'], userAttributes: {}, securityContext: {} };

/** Each case: a Cube query, and the same answer written by hand in SQL; columns map by position. */
interface Case {
  readonly name: string;
  readonly query: Query;
  readonly sql: (t: (name: string) => string, dialect: string) => string;
  readonly ordered?: boolean;
}

const CASES: Case[] = [
  {
    name: 'a total',
    query: { measures: ['line_items.count', 'line_items.revenue', 'line_items.avg_price', 'line_items.min_price', 'line_items.max_price'] },
    sql: (t) =>
      `SELECT count(*) AS a, sum(quantity * price) AS b, avg(price) AS c, min(price) AS d, max(price) AS e FROM ${t('line_items')}`,
  },
  {
    name: 'a monthly series in a date range',
    query: {
      measures: ['orders.count'],
      timeDimensions: [{ dimension: 'orders.created_at', granularity: 'month', dateRange: ['2023-01-01', '2023-06-30'] }],
    },
    sql: (t) => `SELECT date_trunc('month', created_at), count(*) FROM ${t('orders')}
      WHERE created_at >= TIMESTAMP '2023-01-01 00:00:00' AND created_at < TIMESTAMP '2023-07-01 00:00:00' GROUP BY 1 ORDER BY 1`,
    ordered: true,
  },
  {
    name: 'a daily series in a fixed-offset time zone',
    query: {
      measures: ['orders.count'],
      timezone: 'Asia/Tokyo',
      timeDimensions: [{ dimension: 'orders.created_at', granularity: 'day', dateRange: ['2023-03-01', '2023-03-10'] }],
    },
    sql: (t) => `SELECT date_trunc('day', created_at + INTERVAL '9 hours'), count(*) FROM ${t('orders')}
      WHERE created_at + INTERVAL '9 hours' >= TIMESTAMP '2023-03-01 00:00:00' AND created_at + INTERVAL '9 hours' < TIMESTAMP '2023-03-11 00:00:00'
      GROUP BY 1 ORDER BY 1`,
    ordered: true,
  },
  {
    // 12 March 2023 has 23 hours in New York: it starts at 05:00 UTC and ends at 04:00 UTC.
    name: 'days across the spring-forward change in New York',
    query: {
      measures: ['orders.count'],
      timezone: 'America/New_York',
      timeDimensions: [{ dimension: 'orders.created_at', granularity: 'day', dateRange: ['2023-03-10', '2023-03-13'] }],
    },
    sql: (t) => `SELECT CASE WHEN created_at >= TIMESTAMP '2023-03-13 04:00:00' THEN TIMESTAMP '2023-03-13 00:00:00'
        WHEN created_at >= TIMESTAMP '2023-03-12 05:00:00' THEN TIMESTAMP '2023-03-12 00:00:00'
        WHEN created_at >= TIMESTAMP '2023-03-11 05:00:00' THEN TIMESTAMP '2023-03-11 00:00:00'
        ELSE TIMESTAMP '2023-03-10 00:00:00' END, count(*) FROM ${t('orders')}
      WHERE created_at >= TIMESTAMP '2023-03-10 05:00:00' AND created_at < TIMESTAMP '2023-03-14 04:00:00' GROUP BY 1 ORDER BY 1`,
    ordered: true,
  },
  {
    // The year ends 8 hours later in Los Angeles than in UTC.
    name: 'months across a year end in Los Angeles',
    query: {
      measures: ['orders.count'],
      timezone: 'America/Los_Angeles',
      timeDimensions: [{ dimension: 'orders.created_at', granularity: 'month', dateRange: ['2023-12-01', '2024-01-31'] }],
    },
    sql: (t) => `SELECT date_trunc('month', created_at - INTERVAL '8 hours'), count(*) FROM ${t('orders')}
      WHERE created_at >= TIMESTAMP '2023-12-01 08:00:00' AND created_at < TIMESTAMP '2024-02-01 08:00:00' GROUP BY 1 ORDER BY 1`,
    ordered: true,
  },
  {
    name: 'weeks start on Monday',
    query: {
      measures: ['orders.count'],
      timeDimensions: [{ dimension: 'orders.created_at', granularity: 'week', dateRange: ['2023-01-02', '2023-02-26'] }],
    },
    sql: (t) => `SELECT date_trunc('week', created_at), count(*) FROM ${t('orders')}
      WHERE created_at >= TIMESTAMP '2023-01-02 00:00:00' AND created_at < TIMESTAMP '2023-02-27 00:00:00' GROUP BY 1 ORDER BY 1`,
    ordered: true,
  },
  {
    name: 'a top 3 by a joined dimension',
    query: { measures: ['line_items.revenue'], dimensions: ['products.category'], order: { 'line_items.revenue': 'desc' }, limit: 3 },
    sql: (
      t,
    ) => `SELECT p.category, sum(li.quantity * li.price) AS r FROM ${t('line_items')} li LEFT JOIN ${t('products')} p ON li.product_id = p.id
      GROUP BY 1 ORDER BY 2 DESC LIMIT 3`,
    ordered: true,
  },
  {
    name: 'a filtered two-cube join',
    query: {
      measures: ['line_items.revenue', 'line_items.count'],
      dimensions: ['orders.status'],
      filters: [{ member: 'orders.status', operator: 'equals', values: ['completed', 'shipped'] }],
    },
    sql: (
      t,
    ) => `SELECT o.status, sum(li.quantity * li.price) AS a, count(li.id) AS b FROM ${t('line_items')} li LEFT JOIN ${t('orders')} o ON li.order_id = o.id
      WHERE o.status IN ('completed', 'shipped') GROUP BY 1`,
  },
  {
    name: 'fan-out: count across one-to-many (orders → line_items)',
    query: { measures: ['orders.count', 'line_items.count'], dimensions: ['orders.status'] },
    sql: (t) =>
      `SELECT o.status, count(DISTINCT o.id) AS a, count(li.id) AS b FROM ${t('orders')} o LEFT JOIN ${t('line_items')} li ON li.order_id = o.id GROUP BY 1`,
  },
  {
    name: 'fan-out: sum across one-to-many without dimensions',
    query: { measures: ['orders.count', 'orders.completed_count', 'line_items.total_quantity'] },
    sql: (t) => `SELECT (SELECT count(*) FROM ${t('orders')}) AS a, (SELECT count(*) FROM ${t('orders')} WHERE status = 'completed') AS b,
      (SELECT sum(li.quantity) FROM ${t('orders')} o JOIN ${t('line_items')} li ON li.order_id = o.id) AS c`,
  },
  {
    name: 'fan-out: customers → orders, count on the one side',
    query: { measures: ['customers.count', 'orders.count'], dimensions: ['customers.country'] },
    sql: (t) =>
      `SELECT c.country, count(DISTINCT c.id) AS a, count(o.id) AS b FROM ${t('customers')} c LEFT JOIN ${t('orders')} o ON o.customer_id = c.id GROUP BY 1`,
  },
  {
    name: 'fan-out: a dimension on the many side splits the one side',
    query: { measures: ['orders.count'], dimensions: ['products.category'] },
    sql: (t) => `SELECT p.category, count(DISTINCT o.id) FROM ${t('orders')} o LEFT JOIN ${t('line_items')} li ON li.order_id = o.id
      LEFT JOIN ${t('products')} p ON li.product_id = p.id GROUP BY 1`,
  },
  {
    name: 'fan-out: two levels, sum on the many side and count on the one side',
    query: { measures: ['customers.count', 'line_items.revenue'], dimensions: ['customers.segment'] },
    sql: (t) => `SELECT c.segment, count(DISTINCT c.id) AS a, sum(li.quantity * li.price) AS b FROM ${t('customers')} c
      LEFT JOIN ${t('orders')} o ON o.customer_id = c.id LEFT JOIN ${t('line_items')} li ON li.order_id = o.id GROUP BY 1`,
  },
  {
    name: 'a calculated measure over a fan-out',
    query: { measures: ['orders.completed_share', 'line_items.revenue_per_order'], dimensions: ['orders.status_group'] },
    sql: (
      t,
    ) => `SELECT CASE WHEN o.status IN ('completed', 'shipped') THEN 'fulfilled' WHEN o.status = 'processing' THEN 'open' ELSE 'lost' END,
      1.0 * count(DISTINCT CASE WHEN o.status = 'completed' THEN o.id END) / count(DISTINCT o.id) AS a,
      sum(li.quantity * li.price) / count(DISTINCT li.order_id) AS b
      FROM ${t('orders')} o LEFT JOIN ${t('line_items')} li ON li.order_id = o.id GROUP BY 1`,
  },
  {
    name: 'a view with a join path',
    query: { measures: ['sales.revenue', 'sales.orders_count'], dimensions: ['sales.customers_country'] },
    sql: (t) => `SELECT c.country, sum(li.quantity * li.price) AS a, count(DISTINCT o.id) AS b FROM ${t('line_items')} li
      LEFT JOIN ${t('orders')} o ON li.order_id = o.id LEFT JOIN ${t('customers')} c ON o.customer_id = c.id GROUP BY 1`,
  },
  {
    name: 'a segment and a boolean dimension',
    query: { measures: ['orders.count'], dimensions: ['orders.is_completed'], segments: ['orders.completed'] },
    sql: (t) => `SELECT status = 'completed', count(*) FROM ${t('orders')} WHERE status = 'completed' GROUP BY 1`,
  },
  {
    name: 'a measure filter goes to HAVING',
    query: {
      measures: ['orders.count'],
      dimensions: ['customers.city'],
      filters: [{ member: 'orders.count', operator: 'gt', values: ['600'] }],
    },
    sql: (t) =>
      `SELECT c.city, count(*) FROM ${t('orders')} o LEFT JOIN ${t('customers')} c ON o.customer_id = c.id GROUP BY 1 HAVING count(*) > 600`,
  },
  {
    name: 'ungrouped rows',
    query: { dimensions: ['orders.id', 'orders.status'], ungrouped: true, order: { 'orders.id': 'asc' }, limit: 5 },
    sql: (t) => `SELECT id, status FROM ${t('orders')} ORDER BY id LIMIT 5`,
    ordered: true,
  },
  {
    name: 'offset',
    query: { dimensions: ['customers.id'], order: [['customers.id', 'desc']], limit: 3, offset: 2 },
    sql: (t) => `SELECT id FROM ${t('customers')} ORDER BY id DESC LIMIT 3 OFFSET 2`,
    ordered: true,
  },
];

function sortRows(rows: Array<Record<string, unknown>>): Array<Record<string, unknown>> {
  return [...rows].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
}

describe.each(sampleTargets())('results on $name', (target) => {
  let db: SampleDb;
  beforeAll(async () => {
    db = await target.open();
  });
  afterAll(async () => {
    await db?.close();
  });

  it.each(CASES)('$name matches hand-written SQL', async (c) => {
    const response = await load(db.model, c.query, { warehouse: db.warehouse, caller: ADMIN });
    const keys = [
      ...(c.query.dimensions ?? []),
      ...(c.query.timeDimensions ?? []).filter((t) => t.granularity).map((t) => `${t.dimension}.${t.granularity}`),
      ...(c.query.measures ?? []),
    ];
    const engine = normalizeRows(response.data.map((row) => Object.fromEntries(keys.map((k) => [k, row[k]]))));
    const direct = (await db.warehouse.query(c.sql(db.table, db.name), [])).rows;
    const expected = normalizeRows(direct.map((row) => Object.fromEntries(Object.values(row).map((v, i) => [keys[i] ?? `c${i}`, v]))));
    expect(expected.length).toBeGreaterThan(0);
    expect(c.ordered ? engine : sortRows(engine)).toEqual(c.ordered ? expected : sortRows(expected));
  });

  it('answers in the data API shape', async () => {
    const response = await load(
      db.model,
      {
        measures: ['orders.count'],
        dimensions: ['orders.status'],
        timeDimensions: [{ dimension: 'orders.created_at', granularity: 'year' }],
        total: true,
      },
      { warehouse: db.warehouse, caller: ADMIN },
    );
    const first = response.data[0] ?? {};
    expect(Object.keys(first)).toEqual(['orders.status', 'orders.created_at.year', 'orders.created_at', 'orders.count']);
    expect(first['orders.created_at.year']).toBe('2023-01-01T00:00:00.000');
    expect(typeof first['orders.count']).toBe('string');
    expect(response.total).toBe(10);
    expect(response.annotation.measures['orders.count']).toMatchObject({ title: 'Orders Count', shortTitle: 'Count', type: 'number' });
    expect(response.annotation.timeDimensions['orders.created_at.year']).toMatchObject({ title: 'Orders Created At', type: 'time' });
    expect(response.annotation.dimensions['orders.status']).toMatchObject({ type: 'string' });
    expect(response.query.order).toEqual([{ id: 'orders.created_at', desc: false }]);
  });
});
