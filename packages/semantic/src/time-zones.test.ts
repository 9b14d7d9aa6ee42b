import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { load } from './load.js';
import type { Caller } from './model.js';
import type { Query } from './planner/query.js';
import { sampleTargets, type SampleDb } from './test-support/sample-warehouses.js';

const ADMIN: Caller = { groups: ['admin'], userAttributes: {}, securityContext: {} };

/**
 * Date filters in a non-UTC zone with no granularity in the query: the dates are local to the zone
 * (Asia/Tokyo is UTC+9 all year), so each case is written by hand against UTC bounds.
 */
const CASES: Array<{ name: string; query: Query; where: string }> = [
  {
    name: 'inDateRange',
    query: { filters: [{ member: 'orders.created_at', operator: 'inDateRange', values: ['2023-02-01', '2023-02-28'] }] },
    where: "created_at >= TIMESTAMP '2023-01-31 15:00:00' AND created_at < TIMESTAMP '2023-02-28 15:00:00'",
  },
  {
    name: 'notInDateRange',
    query: { filters: [{ member: 'orders.created_at', operator: 'notInDateRange', values: ['2023-02-01', '2023-02-28'] }] },
    where: "created_at < TIMESTAMP '2023-01-31 15:00:00' OR created_at >= TIMESTAMP '2023-02-28 15:00:00'",
  },
  {
    name: 'beforeDate',
    query: { filters: [{ member: 'orders.created_at', operator: 'beforeDate', values: ['2023-06-01'] }] },
    where: "created_at < TIMESTAMP '2023-05-31 15:00:00'",
  },
  {
    name: 'beforeOrOnDate',
    query: { filters: [{ member: 'orders.created_at', operator: 'beforeOrOnDate', values: ['2023-06-01T12:00:00'] }] },
    where: "created_at <= TIMESTAMP '2023-06-01 03:00:00'",
  },
  {
    name: 'afterDate',
    query: { filters: [{ member: 'orders.created_at', operator: 'afterDate', values: ['2024-06-01'] }] },
    where: "created_at > TIMESTAMP '2024-05-31 15:00:00'",
  },
  {
    name: 'afterOrOnDate',
    query: { filters: [{ member: 'orders.created_at', operator: 'afterOrOnDate', values: ['2024-06-01'] }] },
    where: "created_at >= TIMESTAMP '2024-05-31 15:00:00'",
  },
  {
    name: 'gt on a time dimension',
    query: { filters: [{ member: 'orders.created_at', operator: 'gt', values: ['2024-06-01'] }] },
    where: "created_at > TIMESTAMP '2024-05-31 15:00:00'",
  },
  {
    name: 'a date filter inside or',
    query: {
      filters: [
        {
          or: [
            { member: 'orders.created_at', operator: 'beforeDate', values: ['2023-02-01'] },
            { member: 'orders.status', operator: 'equals', values: ['returned'] },
          ],
        },
      ],
    },
    where: "created_at < TIMESTAMP '2023-01-31 15:00:00' OR status = 'returned'",
  },
  {
    name: 'timeDimensions dateRange without granularity',
    query: { timeDimensions: [{ dimension: 'orders.created_at', dateRange: ['2023-03-01', '2023-03-10'] }] },
    where: "created_at >= TIMESTAMP '2023-02-28 15:00:00' AND created_at < TIMESTAMP '2023-03-10 15:00:00'",
  },
  {
    name: 'a date filter beside a plain dimension',
    query: {
      dimensions: ['orders.status'],
      filters: [{ member: 'orders.created_at', operator: 'inDateRange', values: ['2023-02-01', '2023-02-28'] }],
    },
    where: "created_at >= TIMESTAMP '2023-01-31 15:00:00' AND created_at < TIMESTAMP '2023-02-28 15:00:00'",
  },
  {
    name: 'a date filter through a view',
    query: { filters: [{ member: 'sales.orders_created_at', operator: 'afterOrOnDate', values: ['2024-06-01'] }] },
    where: "created_at >= TIMESTAMP '2024-05-31 15:00:00'",
  },
];

describe.each(sampleTargets())('date filters in a time zone on $name', (target) => {
  let db: SampleDb;
  beforeAll(async () => {
    db = await target.open();
  });
  afterAll(async () => {
    await db?.close();
  });

  it.each(CASES)('$name', async ({ query, where }) => {
    const viaView = JSON.stringify(query).includes('sales.');
    const measure = viaView ? 'sales.orders_count' : 'orders.count';
    const response = await load(
      db.model,
      { ...query, measures: [measure], timezone: 'Asia/Tokyo' },
      { warehouse: db.warehouse, caller: ADMIN },
    );
    const dimension = query.dimensions?.[0];
    const sql = dimension
      ? `SELECT status, count(*) FROM ${db.table('orders')} WHERE ${where} GROUP BY 1`
      : `SELECT count(*) FROM ${db.table('orders')} WHERE ${where}`;
    const expected = (await db.warehouse.query(sql, [])).rows.map((row) => Object.values(row).map(String).join('|')).sort();
    const actual = response.data.map((row) => [...(dimension ? [row[dimension]] : []), row[measure]].map(String).join('|')).sort();
    expect(actual.length).toBeGreaterThan(0);
    expect(actual).toEqual(expected);
  });
});
