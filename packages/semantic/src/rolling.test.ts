import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile } from './compiler/compile.js';
import { load } from './load.js';
import type { DataModel } from './model.js';
import type { Query, TimeDimension } from './planner/query.js';
import { normalizeRows, sampleTargets, type SampleDb } from './test-support/sample-warehouses.js';

/** Rolling-window measures over the sample orders (about seven a day through 2023 and 2024). */
const rollingModel = (orders: string, items: string): string => `cubes:
  - name: rolling
    sql_table: '${orders}'
    joins:
      - name: rolling_items
        relationship: one_to_many
        sql: "{CUBE}.id = {rolling_items}.order_id"
    measures:
      - name: count
        type: count
      - name: last_7_days
        type: count
        rolling_window:
          trailing: 7 day
      - name: cumulative
        type: count
        rolling_window:
          trailing: unbounded
      - name: next_3_days
        type: count
        rolling_window:
          leading: 3 day
          offset: start
      - name: two_days_before
        type: count
        rolling_window:
          trailing: 2 day
          offset: start
      - name: last_4_weeks
        type: count
        rolling_window:
          trailing: 4 week
      - name: share_of_week
        type: number
        sql: "1.0 * {count} / NULLIF({last_7_days}, 0)"
      - name: month_to_date
        type: count
        rolling_window:
          type: to_date
          granularity: month
      - name: year_to_date
        type: count
        rolling_window:
          type: to_date
          granularity: year
      - name: running_customer_ids
        type: running_total
        sql: customer_id
      - name: customers_7_days
        type: count_distinct
        sql: customer_id
        rolling_window:
          trailing: 7 days
      - name: max_customer_7_days
        type: max
        sql: customer_id
        rolling_window:
          trailing: 1 week
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
  - name: rolling_items
    sql_table: '${items}'
    measures:
      - name: count
        type: count
    dimensions:
      - name: id
        sql: id
        type: number
        primary_key: true
views:
  - name: rolling_view
    cubes:
      - join_path: rolling
        includes: [last_7_days, created_at]
`;

const DAYS = (from: string, to: string): string => `generate_series(TIMESTAMP '${from}', TIMESTAMP '${to}', INTERVAL '1 day') AS s(d)`;
const MONTHS = (from: string, to: string): string => `generate_series(TIMESTAMP '${from}', TIMESTAMP '${to}', INTERVAL '1 month') AS s(d)`;
const MARCH: TimeDimension = { dimension: 'rolling.created_at', granularity: 'day', dateRange: ['2023-03-01', '2023-03-10'] };

interface Case {
  readonly name: string;
  readonly query: Query;
  /** Hand-written SQL; columns in the order dimensions, time dimension, measures. */
  /** `t` is the orders table, `items` the line items table. */
  readonly sql: (orders: string, items: string) => string;
  readonly ordered?: boolean;
}

/** A count over a correlated window of the series row `s.d`. */
const windowCount = (orders: string, condition: string, what = 'count(*)'): string =>
  `(SELECT ${what} FROM ${orders} o WHERE ${condition})`;

const CASES: Case[] = [
  {
    name: 'trailing 7 day by day reaches back before the date range',
    query: { measures: ['rolling.last_7_days'], timeDimensions: [MARCH] },
    sql: (t) =>
      `SELECT s.d, ${windowCount(t, `o.created_at >= s.d - INTERVAL '6 day' AND o.created_at < s.d + INTERVAL '1 day'`)} FROM ${DAYS('2023-03-01', '2023-03-10')} ORDER BY 1`,
    ordered: true,
  },
  {
    name: 'trailing 7 day through a view',
    query: {
      measures: ['rolling_view.last_7_days'],
      timeDimensions: [{ dimension: 'rolling_view.created_at', granularity: 'day', dateRange: ['2023-03-01', '2023-03-10'] }],
    },
    sql: (t) =>
      `SELECT s.d, ${windowCount(t, `o.created_at >= s.d - INTERVAL '6 day' AND o.created_at < s.d + INTERVAL '1 day'`)} FROM ${DAYS('2023-03-01', '2023-03-10')} ORDER BY 1`,
    ordered: true,
  },
  {
    name: 'trailing 7 day in the query time zone',
    query: { measures: ['rolling.last_7_days'], timeDimensions: [MARCH], timezone: 'Asia/Tokyo' },
    sql: (t) => {
      const local = `o.created_at + INTERVAL '9 hours'`;
      return `SELECT s.d, ${windowCount(t, `${local} >= s.d - INTERVAL '6 day' AND ${local} < s.d + INTERVAL '1 day'`)} FROM ${DAYS('2023-03-01', '2023-03-10')} ORDER BY 1`;
    },
    ordered: true,
  },
  {
    name: 'trailing unbounded is cumulative from the first row',
    query: { measures: ['rolling.cumulative'], timeDimensions: [MARCH] },
    sql: (t) =>
      `SELECT s.d, ${windowCount(t, `o.created_at < s.d + INTERVAL '1 day'`)} FROM ${DAYS('2023-03-01', '2023-03-10')} ORDER BY 1`,
    ordered: true,
  },
  {
    name: 'leading 3 day from the start of each period',
    query: { measures: ['rolling.next_3_days'], timeDimensions: [MARCH] },
    sql: (t) =>
      `SELECT s.d, ${windowCount(t, `o.created_at >= s.d AND o.created_at < s.d + INTERVAL '3 day'`)} FROM ${DAYS('2023-03-01', '2023-03-10')} ORDER BY 1`,
    ordered: true,
  },
  {
    name: 'offset start: trailing 2 day before each period, without it',
    query: { measures: ['rolling.two_days_before'], timeDimensions: [MARCH] },
    sql: (t) =>
      `SELECT s.d, ${windowCount(t, `o.created_at >= s.d - INTERVAL '2 day' AND o.created_at < s.d`)} FROM ${DAYS('2023-03-01', '2023-03-10')} ORDER BY 1`,
    ordered: true,
  },
  {
    name: 'to_date month by day',
    query: {
      measures: ['rolling.month_to_date'],
      timeDimensions: [{ dimension: 'rolling.created_at', granularity: 'day', dateRange: ['2023-03-27', '2023-04-03'] }],
    },
    sql: (t) =>
      `SELECT s.d, ${windowCount(t, `o.created_at >= date_trunc('month', s.d) AND o.created_at < s.d + INTERVAL '1 day'`)} FROM ${DAYS('2023-03-27', '2023-04-03')} ORDER BY 1`,
    ordered: true,
  },
  {
    name: 'to_date year by month',
    query: {
      measures: ['rolling.year_to_date'],
      timeDimensions: [{ dimension: 'rolling.created_at', granularity: 'month', dateRange: ['2023-10-01', '2024-03-31'] }],
    },
    sql: (t) =>
      `SELECT s.d, ${windowCount(t, `o.created_at >= date_trunc('year', s.d) AND o.created_at < s.d + INTERVAL '1 month'`)} FROM ${MONTHS('2023-10-01', '2024-03-01')} ORDER BY 1`,
    ordered: true,
  },
  {
    name: 'running_total sums from the start of the date range',
    query: { measures: ['rolling.running_customer_ids'], timeDimensions: [MARCH] },
    sql: (t) =>
      `SELECT s.d, ${windowCount(t, `o.created_at >= TIMESTAMP '2023-03-01' AND o.created_at < s.d + INTERVAL '1 day'`, 'sum(o.customer_id)')} FROM ${DAYS('2023-03-01', '2023-03-10')} ORDER BY 1`,
    ordered: true,
  },
  {
    name: 'count_distinct and max over a trailing window',
    query: { measures: ['rolling.customers_7_days', 'rolling.max_customer_7_days'], timeDimensions: [MARCH] },
    sql: (t) => {
      const window = `o.created_at >= s.d - INTERVAL '6 day' AND o.created_at < s.d + INTERVAL '1 day'`;
      return `SELECT s.d, ${windowCount(t, window, 'count(DISTINCT o.customer_id)')}, ${windowCount(t, window, 'max(o.customer_id)')}
        FROM ${DAYS('2023-03-01', '2023-03-10')} ORDER BY 1`;
    },
    ordered: true,
  },
  {
    name: 'mixed with a plain measure in one query',
    query: { measures: ['rolling.count', 'rolling.last_7_days', 'rolling.cumulative'], timeDimensions: [MARCH] },
    sql: (t) =>
      `SELECT s.d, ${windowCount(t, `o.created_at >= s.d AND o.created_at < s.d + INTERVAL '1 day'`)} AS a,
        ${windowCount(t, `o.created_at >= s.d - INTERVAL '6 day' AND o.created_at < s.d + INTERVAL '1 day'`)} AS b,
        ${windowCount(t, `o.created_at < s.d + INTERVAL '1 day'`)} AS c
        FROM ${DAYS('2023-03-01', '2023-03-10')} ORDER BY 1`,
    ordered: true,
  },
  {
    name: 'with a dimension, a plain measure and a filter',
    query: {
      measures: ['rolling.count', 'rolling.last_7_days'],
      dimensions: ['rolling.status'],
      timeDimensions: [MARCH],
      filters: [{ member: 'rolling.status', operator: 'notEquals', values: ['returned'] }],
    },
    sql: (t) => `SELECT o.status, s.d,
        sum(CASE WHEN o.created_at >= s.d THEN 1 ELSE 0 END),
        count(*)
      FROM ${DAYS('2023-03-01', '2023-03-10')}
      JOIN ${t} o ON o.created_at >= s.d - INTERVAL '6 day' AND o.created_at < s.d + INTERVAL '1 day' AND o.status <> 'returned'
      GROUP BY 1, 2 HAVING sum(CASE WHEN o.created_at >= s.d THEN 1 ELSE 0 END) > 0`,
  },
  {
    name: 'without a granularity, the window ends at the end of the date range',
    query: {
      measures: ['rolling.last_7_days', 'rolling.year_to_date', 'rolling.running_customer_ids', 'rolling.count'],
      timeDimensions: [{ dimension: 'rolling.created_at', dateRange: ['2023-03-01', '2023-03-10'] }],
    },
    sql: (t) => `SELECT
        ${windowCount(t, `o.created_at >= TIMESTAMP '2023-03-04' AND o.created_at < TIMESTAMP '2023-03-11'`)} AS a,
        ${windowCount(t, `o.created_at >= TIMESTAMP '2023-01-01' AND o.created_at < TIMESTAMP '2023-03-11'`)} AS b,
        ${windowCount(t, `o.created_at >= TIMESTAMP '2023-03-01' AND o.created_at < TIMESTAMP '2023-03-11'`, 'sum(o.customer_id)')} AS c,
        ${windowCount(t, `o.created_at >= TIMESTAMP '2023-03-01' AND o.created_at < TIMESTAMP '2023-03-11'`)} AS d`,
  },
  {
    name: 'without a granularity, in the query time zone',
    query: {
      measures: ['rolling.last_7_days'],
      timezone: 'Asia/Tokyo',
      timeDimensions: [{ dimension: 'rolling.created_at', dateRange: ['2023-03-01', '2023-03-10'] }],
    },
    sql: (t) =>
      `SELECT ${windowCount(t, `o.created_at + INTERVAL '9 hours' >= TIMESTAMP '2023-03-04' AND o.created_at + INTERVAL '9 hours' < TIMESTAMP '2023-03-11'`)}`,
  },
  {
    name: 'without a time dimension, the window covers every row',
    query: { measures: ['rolling.last_7_days', 'rolling.count'], dimensions: ['rolling.status'] },
    sql: (t) => `SELECT status, count(*) AS a, count(*) AS b FROM ${t} GROUP BY 1`,
  },
  {
    name: 'a measure filter on a rolling measure applies to the joined result',
    query: {
      measures: ['rolling.count', 'rolling.last_7_days'],
      timeDimensions: [MARCH],
      filters: [{ member: 'rolling.last_7_days', operator: 'gt', values: ['50'] }],
    },
    sql: (t) => `SELECT * FROM (SELECT s.d,
        ${windowCount(t, `o.created_at >= s.d AND o.created_at < s.d + INTERVAL '1 day'`)} AS a,
        ${windowCount(t, `o.created_at >= s.d - INTERVAL '6 day' AND o.created_at < s.d + INTERVAL '1 day'`)} AS b
        FROM ${DAYS('2023-03-01', '2023-03-10')}) x WHERE b > 50 ORDER BY 1`,
    ordered: true,
  },
  {
    name: 'trailing 4 week by week, weeks starting on Monday, with a plain measure',
    query: {
      measures: ['rolling.count', 'rolling.last_4_weeks'],
      timeDimensions: [{ dimension: 'rolling.created_at', granularity: 'week', dateRange: ['2023-03-08', '2023-04-02'] }],
    },
    sql: (t) => `SELECT s.d,
        ${windowCount(t, `o.created_at >= GREATEST(s.d, TIMESTAMP '2023-03-08') AND o.created_at < s.d + INTERVAL '7 day'`)} AS a,
        ${windowCount(t, `o.created_at >= s.d - INTERVAL '21 day' AND o.created_at < s.d + INTERVAL '7 day'`)} AS b
        FROM generate_series(TIMESTAMP '2023-03-06', TIMESTAMP '2023-03-27', INTERVAL '7 day') AS s(d) ORDER BY 1`,
    ordered: true,
  },
  {
    name: 'ordered by a rolling measure the query does not select',
    query: { measures: ['rolling.count'], timeDimensions: [MARCH], order: [['rolling.last_7_days', 'asc']], limit: 3 },
    sql: (t) => `SELECT d, a FROM (SELECT s.d,
        ${windowCount(t, `o.created_at >= s.d AND o.created_at < s.d + INTERVAL '1 day'`)} AS a,
        ${windowCount(t, `o.created_at >= s.d - INTERVAL '6 day' AND o.created_at < s.d + INTERVAL '1 day'`)} AS b
        FROM ${DAYS('2023-03-01', '2023-03-10')}) x ORDER BY b, d LIMIT 3`,
    // The three lowest windows tie: which rows, not their order, is checked.
    ordered: false,
  },
  {
    name: 'a number measure computed from a rolling and a plain measure',
    query: { measures: ['rolling.share_of_week'], timeDimensions: [MARCH] },
    sql: (t) =>
      `SELECT s.d, 1.0 * ${windowCount(t, `o.created_at >= s.d AND o.created_at < s.d + INTERVAL '1 day'`)}
        / NULLIF(${windowCount(t, `o.created_at >= s.d - INTERVAL '6 day' AND o.created_at < s.d + INTERVAL '1 day'`)}, 0)
        FROM ${DAYS('2023-03-01', '2023-03-10')} ORDER BY 1`,
    ordered: true,
  },
  {
    name: 'a filter on a rolling measure the query does not select',
    query: {
      measures: ['rolling.count'],
      timeDimensions: [MARCH],
      filters: [{ member: 'rolling.last_7_days', operator: 'lt', values: ['45'] }],
    },
    sql: (t) => `SELECT d, a FROM (SELECT s.d,
        ${windowCount(t, `o.created_at >= s.d AND o.created_at < s.d + INTERVAL '1 day'`)} AS a,
        ${windowCount(t, `o.created_at >= s.d - INTERVAL '6 day' AND o.created_at < s.d + INTERVAL '1 day'`)} AS b
        FROM ${DAYS('2023-03-01', '2023-03-10')}) x WHERE b < 45 ORDER BY 1`,
    ordered: true,
  },
  {
    name: 'a rolling measure whose rows a one-to-many join repeats counts each row once',
    query: { measures: ['rolling.last_7_days', 'rolling_items.count'], timeDimensions: [MARCH] },
    sql: (t, items) =>
      `SELECT s.d,
        ${windowCount(t, `o.created_at >= s.d - INTERVAL '6 day' AND o.created_at < s.d + INTERVAL '1 day'`)} AS a,
        (SELECT count(li.id) FROM ${t} o JOIN ${items} li ON li.order_id = o.id
          WHERE o.created_at >= s.d AND o.created_at < s.d + INTERVAL '1 day') AS b
        FROM ${DAYS('2023-03-01', '2023-03-10')} ORDER BY 1`,
    ordered: true,
  },
  {
    name: 'the same without a granularity',
    query: {
      measures: ['rolling.last_7_days', 'rolling_items.count'],
      timeDimensions: [{ dimension: 'rolling.created_at', dateRange: ['2023-03-01', '2023-03-10'] }],
    },
    sql: (t, items) => `SELECT
        ${windowCount(t, `o.created_at >= TIMESTAMP '2023-03-04' AND o.created_at < TIMESTAMP '2023-03-11'`)} AS a,
        (SELECT count(li.id) FROM ${t} o JOIN ${items} li ON li.order_id = o.id
          WHERE o.created_at >= TIMESTAMP '2023-03-01' AND o.created_at < TIMESTAMP '2023-03-11') AS b`,
  },
];

function sortRows(rows: Array<Record<string, unknown>>): Array<Record<string, unknown>> {
  return [...rows].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
}

describe.each(sampleTargets())('rolling windows on $name', (target) => {
  let db: SampleDb;
  let model: DataModel;
  beforeAll(async () => {
    db = await target.open();
    const compiled = compile({
      'model/rolling.yml': rollingModel(db.table('orders').replace(/'/g, "''"), db.table('line_items').replace(/'/g, "''")),
    });
    expect(compiled.errors).toEqual([]);
    model = compiled.model;
  });
  afterAll(async () => {
    await db?.close();
  });

  it.each(CASES)('$name matches hand-written SQL', async (c) => {
    const response = await load(model, c.query, { warehouse: db.warehouse });
    const keys = [
      ...(c.query.dimensions ?? []),
      ...(c.query.timeDimensions ?? []).filter((t) => t.granularity).map((t) => `${t.dimension}.${t.granularity}`),
      ...(c.query.measures ?? []),
    ];
    const engine = normalizeRows(response.data.map((row) => Object.fromEntries(keys.map((k) => [k, row[k]]))));
    const direct = (await db.warehouse.query(c.sql(db.table('orders'), db.table('line_items')), [])).rows;
    const expected = normalizeRows(direct.map((row) => Object.fromEntries(Object.values(row).map((v, i) => [keys[i] ?? `c${i}`, v]))));
    expect(expected.length).toBeGreaterThan(0);
    expect(c.ordered ? engine : sortRows(engine)).toEqual(c.ordered ? expected : sortRows(expected));
  });

  it('rejects a time series without a date range, as Cube does', async () => {
    await expect(
      load(
        model,
        { measures: ['rolling.last_7_days'], timeDimensions: [{ dimension: 'rolling.created_at', granularity: 'day' }] },
        { warehouse: db.warehouse },
      ),
    ).rejects.toThrow(/Time series queries without dateRange aren't supported/);
  });

  it('rejects a time dimension with neither date range nor granularity, on which Cube fails', async () => {
    await expect(
      load(
        model,
        { measures: ['rolling.last_7_days'], timeDimensions: [{ dimension: 'rolling.created_at' }] },
        { warehouse: db.warehouse },
      ),
    ).rejects.toThrow(/Time dimension rolling\.created_at needs a dateRange or a granularity/);
  });

  it('answers no rows for a date range that ends before it starts', async () => {
    const response = await load(
      model,
      {
        measures: ['rolling.count', 'rolling.last_7_days'],
        timeDimensions: [{ dimension: 'rolling.created_at', granularity: 'day', dateRange: ['2023-03-10', '2023-03-01'] }],
      },
      { warehouse: db.warehouse },
    );
    expect(response.data).toEqual([]);
  });

  it('answers every period of the range, the first windows filled from before it', async () => {
    const response = await load(
      model,
      {
        measures: ['rolling.cumulative'],
        timeDimensions: [{ dimension: 'rolling.created_at', granularity: 'month', dateRange: ['2024-11-01', '2025-02-28'] }],
      },
      { warehouse: db.warehouse },
    );
    // The data ends in 2024: the months after it still appear, each carrying the whole count.
    expect(response.data.map((row) => row['rolling.created_at.month'])).toEqual([
      '2024-11-01T00:00:00.000',
      '2024-12-01T00:00:00.000',
      '2025-01-01T00:00:00.000',
      '2025-02-01T00:00:00.000',
    ]);
    const total = Number((await db.warehouse.query(`SELECT count(*) AS n FROM ${db.table('orders')}`, [])).rows[0]?.['n']);
    expect(Number(response.data[3]?.['rolling.cumulative'])).toBe(total);
  });
});
