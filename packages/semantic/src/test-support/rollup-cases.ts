import type { Caller } from '../model.js';
import type { Query } from '../planner/query.js';
import { caller } from './access-model.js';

/**
 * The matching rules of rollups, each with a query a rollup must answer and one it must not: the
 * rollups built for the test (by the name cases offer them under), and the cases.
 */
export const BUILDS = {
  by_day: { id: 'orders.by_day' },
  by_day_ny: { id: 'orders.by_day', timezone: 'America/New_York' },
  by_day_2023: { id: 'orders.by_day', only2023: true },
  by_week: { id: 'orders.by_week' },
  by_month_loose: { id: 'orders.by_month_loose' },
  year_2023: { id: 'orders.year_2023' },
  no_time: { id: 'orders.no_time' },
  items_daily: { id: 'line_items.daily' },
  with_orders: { id: 'line_items.with_orders' },
  by_week_wh: { id: 'orders.by_week', inWarehouse: 'rollup_by_week' },
  no_time_wh: { id: 'orders.no_time', inWarehouse: 'rollup_no_time' },
  items_daily_wh: { id: 'line_items.daily', inWarehouse: 'rollup_items_daily' },
} as const;
export type Build = keyof typeof BUILDS;

export interface Case {
  readonly rule: string;
  readonly offer: readonly Build[];
  readonly query: Query;
  /** The rollup that must answer; undefined: the warehouse must. */
  readonly answers?: Build;
  /** The rollup answers only on this source; elsewhere the warehouse must. */
  readonly answersOnlyOn?: 'duckdb';
  readonly caller?: Caller;
  /** The warehouse query whose answer the rollup's must equal, when not the query itself. */
  readonly same?: Query;
}

const month = (dateRange?: [string, string]) => ({
  dimension: 'orders.created_at',
  granularity: 'month' as const,
  ...(dateRange ? { dateRange } : {}),
});
const H1_2023: [string, string] = ['2023-01-01', '2023-06-30'];

export const CASES: Case[] = [
  // Measures: in the rollup and additive.
  {
    rule: 'count, count with filters',
    offer: ['by_day'],
    answers: 'by_day',
    query: { measures: ['orders.count', 'orders.completed_count'], timeDimensions: [month()] },
  },
  {
    rule: 'sum, avg (as sum and count), min, max',
    offer: ['items_daily'],
    answers: 'items_daily',
    query: {
      measures: [
        'line_items.total_quantity',
        'line_items.revenue',
        'line_items.avg_price',
        'line_items.big_avg_price',
        'line_items.min_price',
        'line_items.max_price',
      ],
      dimensions: ['orders.status'],
    },
  },
  {
    rule: 'count_distinct_approx merged from value lists',
    offer: ['by_day'],
    answers: 'by_day',
    query: { measures: ['orders.customer_count_approx'], dimensions: ['orders.status'], timeDimensions: [month()] },
  },
  {
    rule: 'count_distinct_approx without time',
    offer: ['no_time'],
    answers: 'no_time',
    query: { measures: ['orders.customer_count_approx'] },
  },
  {
    rule: 'count_distinct with exactly the rollup’s groups',
    offer: ['by_day'],
    answers: 'by_day',
    query: {
      measures: ['orders.customer_count'],
      dimensions: ['orders.status', 'customers.country'],
      segments: ['orders.completed'],
      timeDimensions: [{ dimension: 'orders.created_at', granularity: 'day', dateRange: ['2023-03-01', '2023-03-31'] }],
    },
  },
  {
    rule: 'count_distinct over fewer groups does not add up',
    offer: ['by_day'],
    query: { measures: ['orders.customer_count'], dimensions: ['orders.status'], timeDimensions: [month()] },
  },
  {
    rule: 'a measure outside the rollup',
    offer: ['by_week'],
    query: { measures: ['orders.completed_count'], dimensions: ['orders.status'] },
  },
  { rule: 'a calculated measure', offer: ['by_day'], query: { measures: ['orders.completed_share'], dimensions: ['orders.status'] } },
  // Dimensions and segments: a subset of the rollup's.
  {
    rule: 'a dimension of a joined cube in the rollup',
    offer: ['by_day'],
    answers: 'by_day',
    query: { measures: ['orders.count'], dimensions: ['customers.country'] },
  },
  { rule: 'a dimension outside the rollup', offer: ['by_day'], query: { measures: ['orders.count'], dimensions: ['customers.segment'] } },
  {
    rule: 'a segment in the rollup',
    offer: ['by_day'],
    answers: 'by_day',
    query: { measures: ['orders.count'], dimensions: ['orders.status'], segments: ['orders.completed'] },
  },
  { rule: 'a segment outside the rollup', offer: ['by_day'], query: { measures: ['orders.count'], segments: ['orders.recent'] } },
  // Filters: on the rollup's dimensions only.
  {
    rule: 'filters on rollup dimensions, with or/and and a measure filter',
    offer: ['by_day'],
    answers: 'by_day',
    query: {
      measures: ['orders.count'],
      dimensions: ['orders.status'],
      filters: [
        {
          or: [
            { member: 'customers.country', operator: 'equals', values: ['USA'] },
            { member: 'orders.status', operator: 'startsWith', values: ['c'] },
          ],
        },
        { member: 'orders.count', operator: 'gt', values: ['10'] },
      ],
    },
  },
  {
    rule: 'a filter outside the rollup',
    offer: ['by_day'],
    query: { measures: ['orders.count'], filters: [{ member: 'orders.customer_id', operator: 'lt', values: ['100'] }] },
  },
  {
    rule: 'a filter on the time dimension (compares instants)',
    offer: ['by_day'],
    query: { measures: ['orders.count'], filters: [{ member: 'orders.created_at', operator: 'afterDate', values: ['2024-01-01'] }] },
  },
  // Granularity: equal or made of whole rollup buckets.
  {
    rule: 'day rollup, week query',
    offer: ['by_day'],
    answers: 'by_day',
    query: {
      measures: ['orders.count'],
      timeDimensions: [{ dimension: 'orders.created_at', granularity: 'week', dateRange: ['2023-01-02', '2023-03-26'] }],
    },
  },
  {
    rule: 'day rollup, quarter and year query',
    offer: ['by_day'],
    answers: 'by_day',
    query: {
      measures: ['orders.count'],
      timeDimensions: [
        { dimension: 'orders.created_at', granularity: 'quarter' },
        { dimension: 'orders.created_at', granularity: 'year' },
      ],
    },
  },
  {
    rule: 'week rollup, week query',
    offer: ['by_week'],
    answers: 'by_week',
    query: {
      measures: ['orders.count'],
      dimensions: ['orders.status'],
      timeDimensions: [{ dimension: 'orders.created_at', granularity: 'week' }],
    },
  },
  { rule: 'week rollup, month query', offer: ['by_week'], query: { measures: ['orders.count'], timeDimensions: [month()] } },
  {
    rule: 'day rollup, hour query',
    offer: ['by_day'],
    query: {
      measures: ['orders.count'],
      timeDimensions: [{ dimension: 'orders.created_at', granularity: 'hour', dateRange: ['2023-01-01', '2023-01-02'] }],
    },
  },
  // Date range: aligned to the rollup's granularity, within what is built.
  {
    rule: 'an aligned date range',
    offer: ['by_day'],
    answers: 'by_day',
    query: { measures: ['orders.count'], dimensions: ['orders.status'], timeDimensions: [month(H1_2023)] },
  },
  {
    rule: 'a date range without granularity',
    offer: ['by_day'],
    answers: 'by_day',
    query: { measures: ['orders.count'], timeDimensions: [{ dimension: 'orders.created_at', dateRange: ['2023-02-10', '2023-05-20'] }] },
  },
  {
    rule: 'a date range that cuts a day',
    offer: ['by_day'],
    query: {
      measures: ['orders.count'],
      timeDimensions: [{ dimension: 'orders.created_at', dateRange: ['2023-02-10T12:00:00', '2023-05-20'] }],
    },
  },
  {
    rule: 'a date range that cuts a month, on a month rollup',
    offer: ['year_2023'],
    query: { measures: ['orders.count'], timeDimensions: [{ dimension: 'orders.created_at', dateRange: ['2023-02-10', '2023-05-20'] }] },
  },
  {
    rule: 'allow_non_strict_date_range_match reads whole months',
    offer: ['by_month_loose'],
    answers: 'by_month_loose',
    query: {
      measures: ['orders.count'],
      timeDimensions: [{ dimension: 'orders.created_at', granularity: 'month', dateRange: ['2023-02-10', '2023-05-20'] }],
    },
    same: {
      measures: ['orders.count'],
      timeDimensions: [{ dimension: 'orders.created_at', granularity: 'month', dateRange: ['2023-02-01', '2023-05-31'] }],
    },
  },
  {
    rule: 'a build range, a date range inside it',
    offer: ['year_2023'],
    answers: 'year_2023',
    query: { measures: ['orders.count'], dimensions: ['orders.status'], timeDimensions: [month(H1_2023)] },
  },
  {
    rule: 'a build range, a date range past it',
    offer: ['year_2023'],
    query: { measures: ['orders.count'], timeDimensions: [month(['2023-07-01', '2024-06-30'])] },
  },
  { rule: 'a build range, no date range', offer: ['year_2023'], query: { measures: ['orders.count'], dimensions: ['orders.status'] } },
  {
    rule: 'a date range within the built partitions',
    offer: ['by_day_2023'],
    answers: 'by_day_2023',
    query: { measures: ['orders.count'], timeDimensions: [month(H1_2023)] },
  },
  {
    rule: 'a date range past the built partitions',
    offer: ['by_day_2023'],
    query: { measures: ['orders.count'], timeDimensions: [month(['2023-12-01', '2024-01-31'])] },
  },
  // Time zone: a rollup's buckets are days of the zone it was built in.
  {
    rule: 'a UTC rollup, a New York query',
    offer: ['by_day'],
    query: { measures: ['orders.count'], timeDimensions: [month(H1_2023)], timezone: 'America/New_York' },
  },
  {
    rule: 'a New York rollup, a New York query',
    offer: ['by_day', 'by_day_ny'],
    answers: 'by_day_ny',
    query: { measures: ['orders.count'], timeDimensions: [month(H1_2023)], timezone: 'America/New_York' },
  },
  // Access policies: row filters on the rollup's columns, else the warehouse.
  {
    rule: 'a row policy on a rollup dimension',
    offer: ['by_week'],
    answers: 'by_week',
    caller: caller([], { status: 'shipped' }),
    query: { measures: ['orders.count'], timeDimensions: [{ dimension: 'orders.created_at', granularity: 'week' }] },
  },
  {
    rule: 'a row policy on a joined cube’s rollup dimension',
    offer: ['by_day'],
    answers: 'by_day',
    caller: caller([], { country: 'USA' }),
    query: { measures: ['orders.count'], dimensions: ['customers.country', 'orders.status'] },
  },
  {
    rule: 'a row policy on a member outside the rollup',
    offer: ['by_day'],
    caller: caller([], { customer: 7 }),
    query: { measures: ['orders.count'], dimensions: ['orders.status'] },
  },
  {
    rule: 'a joined cube’s row policy outside the rollup',
    offer: ['by_week'],
    caller: caller([], { country: 'USA' }),
    query: { measures: ['orders.count'], dimensions: ['customers.country'] },
  },
  // Views: their members are the cubes' members, their policies apply on the rollup's columns.
  {
    rule: 'a view’s members',
    offer: ['by_day'],
    answers: 'by_day',
    query: {
      measures: ['sales.count'],
      dimensions: ['sales.customers_country'],
      timeDimensions: [{ dimension: 'sales.created_at', granularity: 'month' }],
    },
  },
  {
    rule: 'a view’s row policy on a rollup dimension',
    offer: ['by_day'],
    answers: 'by_day',
    caller: caller([], { view_country: 'UK' }),
    query: { measures: ['sales.count'], dimensions: ['sales.status'] },
  },
  {
    rule: 'a view member outside the rollup',
    offer: ['by_day'],
    query: { measures: ['sales.count'], dimensions: ['sales.customers_segment'] },
  },
  // Joins: the rollup's rows must be the query's rows.
  {
    rule: 'a rollup rooted at line_items, joined cubes many-to-one',
    offer: ['items_daily'],
    answers: 'items_daily',
    query: { measures: ['line_items.count'], dimensions: ['customers.country'], timeDimensions: [month(H1_2023)] },
  },
  {
    rule: 'a rollup_join built as one rollup',
    offer: ['with_orders'],
    answers: 'with_orders',
    query: { measures: ['line_items.revenue', 'orders.count'], dimensions: ['orders.status'] },
  },
  {
    rule: 'a rollup_join asked for another root',
    offer: ['with_orders'],
    query: { measures: ['orders.count'], dimensions: ['orders.status'] },
  },
  // Rollups kept in the source warehouse (external: false), read with the source's SQL.
  {
    rule: 'in the warehouse: sum, avg of whole numbers, min, max',
    offer: ['items_daily_wh'],
    answers: 'items_daily_wh',
    query: {
      measures: [
        'line_items.total_quantity',
        'line_items.avg_quantity',
        'line_items.avg_price',
        'line_items.min_price',
        'line_items.max_price',
      ],
      dimensions: ['orders.status'],
      timeDimensions: [{ dimension: 'orders.created_at', granularity: 'quarter', dateRange: ['2023-01-01', '2023-12-31'] }],
    },
  },
  {
    rule: 'in the warehouse: a row policy',
    offer: ['by_week_wh'],
    answers: 'by_week_wh',
    caller: caller([], { status: 'completed' }),
    query: {
      measures: ['orders.count'],
      timeDimensions: [{ dimension: 'orders.created_at', granularity: 'week' }],
      order: [['orders.created_at', 'desc']],
      limit: 20,
    },
  },
  {
    rule: 'in the warehouse: count_distinct_approx merges lists only in DuckDB',
    offer: ['no_time_wh'],
    answers: 'no_time_wh',
    answersOnlyOn: 'duckdb',
    query: { measures: ['orders.customer_count_approx'], dimensions: ['orders.status'] },
  },
  {
    rule: 'avg of whole numbers',
    offer: ['items_daily'],
    answers: 'items_daily',
    query: { measures: ['line_items.avg_quantity'], dimensions: ['customers.country'] },
  },
  // Query shapes.
  {
    rule: 'order, limit, offset and total',
    offer: ['by_day'],
    answers: 'by_day',
    query: {
      measures: ['orders.count'],
      dimensions: ['customers.country', 'orders.status'],
      order: [
        ['orders.count', 'desc'],
        ['customers.country', 'asc'],
        ['orders.status', 'asc'],
      ],
      limit: 7,
      offset: 2,
      total: true,
    },
  },
  { rule: 'an ungrouped query', offer: ['by_day'], query: { dimensions: ['orders.status'], ungrouped: true, limit: 5 } },
  {
    rule: 'the first rollup that answers',
    offer: ['by_week', 'by_day'],
    answers: 'by_day',
    query: { measures: ['orders.count'], timeDimensions: [month()] },
  },
];
