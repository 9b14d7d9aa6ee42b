import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QueryError } from './errors.js';
import { load } from './load.js';
import type { Caller } from './model.js';
import { normalizeRows, sampleTargets, type SampleDb } from './test-support/sample-warehouses.js';

const ADMIN: Caller = { groups: ['admin'], userAttributes: {}, securityContext: {} };
const NOW = new Date('2023-03-15T12:00:00Z');

/** Each case: a query in one of Cube's forms, and the same rows written by hand in SQL (columns map by position). */
interface Case {
  readonly name: string;
  readonly query: Record<string, unknown>;
  readonly keys: readonly string[];
  readonly sql: (table: (name: string) => string) => string;
}

const CASES: Case[] = [
  {
    name: 'order by a measure the query does not select',
    query: {
      dimensions: ['orders.status'],
      order: [
        ['orders.count', 'desc'],
        ['orders.status', 'asc'],
      ],
      limit: 3,
    },
    keys: ['orders.status'],
    sql: (t) => `SELECT status FROM ${t('orders')} GROUP BY 1 ORDER BY count(*) DESC, 1 ASC LIMIT 3`,
  },
  {
    name: 'order by a measure of a fanned-out cube the query does not select',
    query: { dimensions: ['customers.country'], order: { 'line_items.revenue': 'desc' } },
    keys: ['customers.country'],
    sql: (t) => `SELECT c.country FROM ${t('customers')} c LEFT JOIN ${t('orders')} o ON o.customer_id = c.id
      LEFT JOIN ${t('line_items')} li ON li.order_id = o.id GROUP BY 1 ORDER BY sum(li.quantity * li.price) DESC`,
  },
  {
    name: 'order by a dimension an ungrouped query does not select',
    query: { dimensions: ['orders.id'], ungrouped: true, order: { 'orders.created_at': 'desc', 'orders.id': 'asc' }, limit: 5 },
    keys: ['orders.id'],
    sql: (t) => `SELECT id FROM ${t('orders')} ORDER BY created_at DESC, id ASC LIMIT 5`,
  },
  {
    name: 'a dimension outside GROUP BY is left out of the order, as Cube does',
    query: {
      dimensions: ['orders.status'],
      order: [
        ['orders.created_at', 'desc'],
        ['orders.status', 'desc'],
      ],
    },
    keys: ['orders.status'],
    sql: (t) => `SELECT status FROM ${t('orders')} GROUP BY 1 ORDER BY 1 DESC`,
  },
  {
    name: 'inDateRange with one date runs to the end of today',
    query: { measures: ['orders.count'], filters: [{ member: 'orders.created_at', operator: 'inDateRange', values: ['2023-03-01'] }] },
    keys: ['orders.count'],
    sql: (t) => `SELECT count(*) FROM ${t('orders')} WHERE created_at >= TIMESTAMP '2023-03-01' AND created_at < TIMESTAMP '2023-03-16'`,
  },
  {
    name: 'inDateRange with one date in a time zone',
    query: {
      measures: ['orders.count'],
      timezone: 'Asia/Tokyo',
      filters: [{ member: 'orders.created_at', operator: 'inDateRange', values: ['2023-03-01'] }],
    },
    keys: ['orders.count'],
    sql: (t) =>
      `SELECT count(*) FROM ${t('orders')} WHERE created_at >= TIMESTAMP '2023-02-28 15:00:00' AND created_at < TIMESTAMP '2023-03-15 15:00:00'`,
  },
  {
    name: 'notInDateRange with one relative value',
    query: { measures: ['orders.count'], filters: [{ member: 'orders.created_at', operator: 'notInDateRange', values: ['last month'] }] },
    keys: ['orders.count'],
    sql: (t) => `SELECT count(*) FROM ${t('orders')} WHERE created_at < TIMESTAMP '2023-02-01' OR created_at >= TIMESTAMP '2023-03-01'`,
  },
  // Cube's gateway reads a relative phrase as its range: the start for beforeDate and afterOrOnDate, the
  // end for beforeOrOnDate and afterDate (NOW is Wednesday 15 March; last week is 6 to 12 March).
  {
    name: 'beforeDate with a relative phrase',
    query: { measures: ['orders.count'], filters: [{ member: 'orders.created_at', operator: 'beforeDate', values: ['last week'] }] },
    keys: ['orders.count'],
    sql: (t) => `SELECT count(*) FROM ${t('orders')} WHERE created_at < TIMESTAMP '2023-03-06'`,
  },
  {
    name: 'afterOrOnDate with a relative phrase',
    query: { measures: ['orders.count'], filters: [{ member: 'orders.created_at', operator: 'afterOrOnDate', values: ['last week'] }] },
    keys: ['orders.count'],
    sql: (t) => `SELECT count(*) FROM ${t('orders')} WHERE created_at >= TIMESTAMP '2023-03-06'`,
  },
  {
    name: 'beforeOrOnDate with a relative phrase',
    query: { measures: ['orders.count'], filters: [{ member: 'orders.created_at', operator: 'beforeOrOnDate', values: ['last week'] }] },
    keys: ['orders.count'],
    sql: (t) => `SELECT count(*) FROM ${t('orders')} WHERE created_at < TIMESTAMP '2023-03-13'`,
  },
  {
    name: 'afterDate with a relative phrase in a time zone',
    query: {
      measures: ['orders.count'],
      timezone: 'Asia/Tokyo',
      filters: [{ member: 'orders.created_at', operator: 'afterDate', values: ['last week'] }],
    },
    keys: ['orders.count'],
    sql: (t) => `SELECT count(*) FROM ${t('orders')} WHERE created_at >= TIMESTAMP '2023-03-12 15:00:00'`,
  },
  // Cube reads a missing or empty zone as its default (UTC): `query.timezone || defaultTimezone`.
  {
    name: 'a null time zone is UTC',
    query: { measures: ['orders.count'], dimensions: ['orders.created_at.year'], timezone: null },
    keys: ['orders.created_at.year', 'orders.count'],
    sql: (t) => `SELECT date_trunc('year', created_at), count(*) FROM ${t('orders')} GROUP BY 1 ORDER BY 1`,
  },
  {
    name: 'an empty time zone is UTC',
    query: { measures: ['orders.count'], dimensions: ['orders.created_at.year'], timezone: '' },
    keys: ['orders.created_at.year', 'orders.count'],
    sql: (t) => `SELECT date_trunc('year', created_at), count(*) FROM ${t('orders')} GROUP BY 1 ORDER BY 1`,
  },
  {
    name: 'a one-date dateRange is that day',
    query: { measures: ['orders.count'], timeDimensions: [{ dimension: 'orders.created_at', dateRange: ['2023-03-01'] }] },
    keys: ['orders.count'],
    sql: (t) => `SELECT count(*) FROM ${t('orders')} WHERE created_at >= TIMESTAMP '2023-03-01' AND created_at < TIMESTAMP '2023-03-02'`,
  },
  {
    name: 'a dimension named with a granularity',
    query: { measures: ['orders.count'], dimensions: ['orders.created_at.year'] },
    keys: ['orders.created_at.year', 'orders.count'],
    sql: (t) => `SELECT date_trunc('year', created_at), count(*) FROM ${t('orders')} GROUP BY 1 ORDER BY 1`,
  },
  {
    name: 'ungrouped with a filter',
    query: {
      dimensions: ['orders.id', 'orders.status'],
      ungrouped: true,
      filters: [{ member: 'orders.status', operator: 'equals', values: ['returned'] }],
      order: { 'orders.id': 'asc' },
    },
    keys: ['orders.id', 'orders.status'],
    sql: (t) => `SELECT id, status FROM ${t('orders')} WHERE status = 'returned' ORDER BY id`,
  },
  {
    name: 'renewQuery and cache change nothing here',
    query: {
      measures: ['orders.count'],
      dimensions: ['orders.status'],
      renewQuery: true,
      cache: 'no-cache',
      order: { 'orders.status': 'asc' },
    },
    keys: ['orders.status', 'orders.count'],
    sql: (t) => `SELECT status, count(*) FROM ${t('orders')} GROUP BY 1 ORDER BY 1`,
  },
];

describe.each(sampleTargets())('query format on $name', (target) => {
  let db: SampleDb;
  beforeAll(async () => {
    db = await target.open();
  });
  afterAll(async () => {
    await db?.close();
  });
  const options = (): { warehouse: SampleDb['warehouse']; caller: Caller; now: Date } => ({
    warehouse: db.warehouse,
    caller: ADMIN,
    now: NOW,
  });

  it.each(CASES)('$name', async ({ query, keys, sql }) => {
    const response = await load(db.model, query, options());
    const rows = response.data as Array<Record<string, unknown>>;
    for (const row of rows) expect(Object.keys(row).filter((key) => !keys.includes(key) && key !== 'orders.created_at')).toEqual([]);
    const engine = normalizeRows(rows.map((row) => Object.fromEntries(keys.map((key) => [key, row[key]]))));
    const direct = (await db.warehouse.query(sql(db.table), [])).rows;
    const expected = normalizeRows(
      direct.map((row) => Object.fromEntries(Object.values(row).map((value, index) => [keys[index] ?? `c${index}`, value]))),
    );
    expect(expected.length).toBeGreaterThan(0);
    expect(engine).toEqual(expected);
  });

  // Cube's gateway refuses these before planning; the engine answered "Can't find join path to join " for `{}`,
  // failed on DuckDB with "SELECT clause without selection list", and on PostgreSQL gave rows with no columns.
  it.each<[string, Record<string, unknown>]>([
    ['an empty query', {}],
    ['filters alone', { filters: [{ member: 'orders.status', operator: 'equals', values: ['completed'] }] }],
    ['a segment alone', { segments: ['orders.completed'] }],
    [
      'a time dimension without granularity',
      { timeDimensions: [{ dimension: 'orders.created_at', dateRange: ['2023-01-01', '2023-01-31'] }] },
    ],
    ['empty member lists', { measures: [], dimensions: [], timeDimensions: [] }],
  ])('refuses %s, as Cube does', async (_name, query) => {
    await expect(load(db.model, query, options())).rejects.toThrow(
      new QueryError('Query should contain either measures, dimensions or timeDimensions with granularities in order to be valid'),
    );
  });

  // Cube's message; the engine left the filter out of its SQL and answered every row.
  it.each<[string, Record<string, unknown>]>([
    [
      'a filter on a selected measure',
      { measures: ['orders.count'], filters: [{ member: 'orders.count', operator: 'gt', values: ['1'] }] },
    ],
    ['a filter on a measure in an or group', { filters: [{ or: [{ member: 'line_items.revenue', operator: 'lt', values: [10] }] }] }],
  ])('refuses an ungrouped query with %s', async (_name, extra) => {
    const query = { dimensions: ['orders.id'], ungrouped: true, ...extra };
    await expect(load(db.model, query, options())).rejects.toThrow(new QueryError("Measure filters aren't allowed in ungrouped query"));
  });

  it('answers an ungrouped query with measureFilter, which filters rows rather than groups', async () => {
    const query = {
      dimensions: ['orders.id'],
      ungrouped: true,
      filters: [{ member: 'orders.completed_count', operator: 'measureFilter' }],
    };
    const response = await load(db.model, query, options());
    const direct = await db.warehouse.query(`SELECT count(*) AS n FROM ${db.table('orders')} WHERE status = 'completed'`, []);
    expect(response.data).toHaveLength(Number(direct.rows[0]?.['n']));
  });

  it('accepts a query whose only member is a time dimension with a granularity', async () => {
    const response = await load(db.model, { timeDimensions: [{ dimension: 'orders.created_at', granularity: 'year' }] }, options());
    const direct = await db.warehouse.query(`SELECT count(DISTINCT date_trunc('year', created_at)) AS n FROM ${db.table('orders')}`, []);
    expect(response.data).toHaveLength(Number(direct.rows[0]?.['n']));
  });

  it('total counts every row, whatever the limit and offset', async () => {
    const response = await load(db.model, { dimensions: ['customers.city'], total: true, limit: 2, offset: 1 }, options());
    const direct = await db.warehouse.query(
      `SELECT count(DISTINCT city) + max(CASE WHEN city IS NULL THEN 1 ELSE 0 END) AS n FROM ${db.table('customers')}`,
      [],
    );
    expect(response.data).toHaveLength(2);
    expect(response.total).toBe(Number(direct.rows[0]?.['n']));
  });

  it('answers no rows for limit 0 or an offset past the end, and total still counts them all', async () => {
    const query = { dimensions: ['orders.status'], total: true };
    const direct = await db.warehouse.query(`SELECT count(DISTINCT status) AS n FROM ${db.table('orders')}`, []);
    for (const page of [{ limit: 0 }, { offset: 1000 }, { limit: 3, offset: Number(direct.rows[0]?.['n']) }]) {
      const response = await load(db.model, { ...query, ...page }, options());
      expect(response.data, JSON.stringify(page)).toEqual([]);
      expect(response.total).toBe(Number(direct.rows[0]?.['n']));
    }
  });

  it('limits to 10,000 rows by default and refuses more than 50,000', async () => {
    const many = await load(db.model, { dimensions: ['line_items.id'], ungrouped: true }, options());
    expect(many.data).toHaveLength(10_000);
    const most = await load(db.model, { dimensions: ['line_items.id'], ungrouped: true, limit: 50_000 }, options());
    expect(most.data).toHaveLength(20_000);
    await expect(load(db.model, { dimensions: ['line_items.id'], limit: 50_001 }, options())).rejects.toThrow(QueryError);
  });

  it('refuses compareDateRange on the single-result load', async () => {
    await expect(
      load(
        db.model,
        { measures: ['orders.count'], timeDimensions: [{ dimension: 'orders.created_at', compareDateRange: ['2023-01-01', 'last year'] }] },
        options(),
      ),
    ).rejects.toThrow(/queryType "multi"/);
  });
});
