import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { load, runPlan } from '../load.js';
import type { Caller, DataModel } from '../model.js';
import { planQuery } from '../planner/plan.js';
import type { Query } from '../planner/query.js';
import { writeSample } from '../sample/sample.js';
import { caller } from '../test-support/access-model.js';
import { compileRollupModel } from '../test-support/rollup-model.js';
import { openRollupStore, type TestRollupStore } from '../test-support/rollup-store.js';
import { normalizeRows, sortedValues } from '../test-support/sample-warehouses.js';
import { warehouseTargets, type ScratchWarehouse } from '../test-support/warehouses.js';
import type { AvailableRollup } from './types.js';

/** Rollups the tests build, by the name cases offer them under. */
const BUILDS = {
  by_day: { id: 'orders.by_day' },
  by_day_ny: { id: 'orders.by_day', timezone: 'America/New_York' },
  by_week: { id: 'orders.by_week' },
  by_month_loose: { id: 'orders.by_month_loose' },
  year_2023: { id: 'orders.year_2023' },
  no_time: { id: 'orders.no_time' },
  items_daily: { id: 'line_items.daily' },
  with_orders: { id: 'line_items.with_orders' },
} as const;
type Build = keyof typeof BUILDS;

interface Case {
  readonly rule: string;
  readonly offer: readonly Build[];
  readonly query: Query;
  /** The rollup that must answer; undefined: the warehouse must. */
  readonly answers?: Build;
  readonly caller?: Caller;
  /** The warehouse query whose answer the rollup's must equal, when not the query itself. */
  readonly same?: Query;
}

const month = (dateRange?: [string, string]) => ({ dimension: 'orders.created_at', granularity: 'month' as const, ...(dateRange ? { dateRange } : {}) });
const H1_2023: [string, string] = ['2023-01-01', '2023-06-30'];

const CASES: Case[] = [
  // Measures: in the rollup and additive.
  { rule: 'count, count with filters', offer: ['by_day'], answers: 'by_day', query: { measures: ['orders.count', 'orders.completed_count'], timeDimensions: [month()] } },
  { rule: 'sum, avg (as sum and count), min, max', offer: ['items_daily'], answers: 'items_daily', query: { measures: ['line_items.total_quantity', 'line_items.revenue', 'line_items.avg_price', 'line_items.big_avg_price', 'line_items.min_price', 'line_items.max_price'], dimensions: ['orders.status'] } },
  { rule: 'count_distinct_approx merged from value lists', offer: ['by_day'], answers: 'by_day', query: { measures: ['orders.customer_count_approx'], dimensions: ['orders.status'], timeDimensions: [month()] } },
  { rule: 'count_distinct_approx without time', offer: ['no_time'], answers: 'no_time', query: { measures: ['orders.customer_count_approx'] } },
  { rule: 'count_distinct with exactly the rollup’s groups', offer: ['by_day'], answers: 'by_day', query: { measures: ['orders.customer_count'], dimensions: ['orders.status', 'customers.country'], segments: ['orders.completed'], timeDimensions: [{ dimension: 'orders.created_at', granularity: 'day', dateRange: ['2023-03-01', '2023-03-31'] }] } },
  { rule: 'count_distinct over fewer groups does not add up', offer: ['by_day'], query: { measures: ['orders.customer_count'], dimensions: ['orders.status'], timeDimensions: [month()] } },
  { rule: 'a measure outside the rollup', offer: ['by_week'], query: { measures: ['orders.completed_count'], dimensions: ['orders.status'] } },
  { rule: 'a calculated measure', offer: ['by_day'], query: { measures: ['orders.completed_share'], dimensions: ['orders.status'] } },
  // Dimensions and segments: a subset of the rollup's.
  { rule: 'a dimension of a joined cube in the rollup', offer: ['by_day'], answers: 'by_day', query: { measures: ['orders.count'], dimensions: ['customers.country'] } },
  { rule: 'a dimension outside the rollup', offer: ['by_day'], query: { measures: ['orders.count'], dimensions: ['customers.segment'] } },
  { rule: 'a segment in the rollup', offer: ['by_day'], answers: 'by_day', query: { measures: ['orders.count'], dimensions: ['orders.status'], segments: ['orders.completed'] } },
  { rule: 'a segment outside the rollup', offer: ['by_day'], query: { measures: ['orders.count'], segments: ['orders.recent'] } },
  // Filters: on the rollup's dimensions only.
  { rule: 'filters on rollup dimensions, with or/and and a measure filter', offer: ['by_day'], answers: 'by_day', query: { measures: ['orders.count'], dimensions: ['orders.status'], filters: [{ or: [{ member: 'customers.country', operator: 'equals', values: ['USA'] }, { member: 'orders.status', operator: 'startsWith', values: ['c'] }] }, { member: 'orders.count', operator: 'gt', values: ['10'] }] } },
  { rule: 'a filter outside the rollup', offer: ['by_day'], query: { measures: ['orders.count'], filters: [{ member: 'orders.customer_id', operator: 'lt', values: ['100'] }] } },
  { rule: 'a filter on the time dimension (compares instants)', offer: ['by_day'], query: { measures: ['orders.count'], filters: [{ member: 'orders.created_at', operator: 'afterDate', values: ['2024-01-01'] }] } },
  // Granularity: equal or made of whole rollup buckets.
  { rule: 'day rollup, week query', offer: ['by_day'], answers: 'by_day', query: { measures: ['orders.count'], timeDimensions: [{ dimension: 'orders.created_at', granularity: 'week', dateRange: ['2023-01-02', '2023-03-26'] }] } },
  { rule: 'day rollup, quarter and year query', offer: ['by_day'], answers: 'by_day', query: { measures: ['orders.count'], timeDimensions: [{ dimension: 'orders.created_at', granularity: 'quarter' }, { dimension: 'orders.created_at', granularity: 'year' }] } },
  { rule: 'week rollup, week query', offer: ['by_week'], answers: 'by_week', query: { measures: ['orders.count'], dimensions: ['orders.status'], timeDimensions: [{ dimension: 'orders.created_at', granularity: 'week' }] } },
  { rule: 'week rollup, month query', offer: ['by_week'], query: { measures: ['orders.count'], timeDimensions: [month()] } },
  { rule: 'day rollup, hour query', offer: ['by_day'], query: { measures: ['orders.count'], timeDimensions: [{ dimension: 'orders.created_at', granularity: 'hour', dateRange: ['2023-01-01', '2023-01-02'] }] } },
  // Date range: aligned to the rollup's granularity, within what is built.
  { rule: 'an aligned date range', offer: ['by_day'], answers: 'by_day', query: { measures: ['orders.count'], dimensions: ['orders.status'], timeDimensions: [month(H1_2023)] } },
  { rule: 'a date range without granularity', offer: ['by_day'], answers: 'by_day', query: { measures: ['orders.count'], timeDimensions: [{ dimension: 'orders.created_at', dateRange: ['2023-02-10', '2023-05-20'] }] } },
  { rule: 'a date range that cuts a day', offer: ['by_day'], query: { measures: ['orders.count'], timeDimensions: [{ dimension: 'orders.created_at', dateRange: ['2023-02-10T12:00:00', '2023-05-20'] }] } },
  { rule: 'a date range that cuts a month, on a month rollup', offer: ['year_2023'], query: { measures: ['orders.count'], timeDimensions: [{ dimension: 'orders.created_at', dateRange: ['2023-02-10', '2023-05-20'] }] } },
  {
    rule: 'allow_non_strict_date_range_match reads whole months',
    offer: ['by_month_loose'],
    answers: 'by_month_loose',
    query: { measures: ['orders.count'], timeDimensions: [{ dimension: 'orders.created_at', granularity: 'month', dateRange: ['2023-02-10', '2023-05-20'] }] },
    same: { measures: ['orders.count'], timeDimensions: [{ dimension: 'orders.created_at', granularity: 'month', dateRange: ['2023-02-01', '2023-05-31'] }] },
  },
  { rule: 'a build range, a date range inside it', offer: ['year_2023'], answers: 'year_2023', query: { measures: ['orders.count'], dimensions: ['orders.status'], timeDimensions: [month(H1_2023)] } },
  { rule: 'a build range, a date range past it', offer: ['year_2023'], query: { measures: ['orders.count'], timeDimensions: [month(['2023-07-01', '2024-06-30'])] } },
  { rule: 'a build range, no date range', offer: ['year_2023'], query: { measures: ['orders.count'], dimensions: ['orders.status'] } },
  // Time zone: a rollup's buckets are days of the zone it was built in.
  { rule: 'a UTC rollup, a New York query', offer: ['by_day'], query: { measures: ['orders.count'], timeDimensions: [month(H1_2023)], timezone: 'America/New_York' } },
  { rule: 'a New York rollup, a New York query', offer: ['by_day', 'by_day_ny'], answers: 'by_day_ny', query: { measures: ['orders.count'], timeDimensions: [month(H1_2023)], timezone: 'America/New_York' } },
  // Access policies: row filters on the rollup's columns, else the warehouse.
  { rule: 'a row policy on a rollup dimension', offer: ['by_week'], answers: 'by_week', caller: caller([], { status: 'shipped' }), query: { measures: ['orders.count'], timeDimensions: [{ dimension: 'orders.created_at', granularity: 'week' }] } },
  { rule: 'a row policy on a joined cube’s rollup dimension', offer: ['by_day'], answers: 'by_day', caller: caller([], { country: 'USA' }), query: { measures: ['orders.count'], dimensions: ['customers.country', 'orders.status'] } },
  { rule: 'a row policy on a member outside the rollup', offer: ['by_day'], caller: caller([], { customer: 7 }), query: { measures: ['orders.count'], dimensions: ['orders.status'] } },
  { rule: 'a joined cube’s row policy outside the rollup', offer: ['by_week'], caller: caller([], { country: 'USA' }), query: { measures: ['orders.count'], dimensions: ['customers.country'] } },
  // Joins: the rollup's rows must be the query's rows.
  { rule: 'a rollup rooted at line_items, joined cubes many-to-one', offer: ['items_daily'], answers: 'items_daily', query: { measures: ['line_items.count'], dimensions: ['customers.country'], timeDimensions: [month(H1_2023)] } },
  { rule: 'a rollup_join built as one rollup', offer: ['with_orders'], answers: 'with_orders', query: { measures: ['line_items.revenue', 'orders.count'], dimensions: ['orders.status'] } },
  { rule: 'a rollup_join asked for another root', offer: ['with_orders'], query: { measures: ['orders.count'], dimensions: ['orders.status'] } },
  // Query shapes.
  { rule: 'order, limit, offset and total', offer: ['by_day'], answers: 'by_day', query: { measures: ['orders.count'], dimensions: ['customers.country', 'orders.status'], order: [['orders.count', 'desc'], ['customers.country', 'asc'], ['orders.status', 'asc']], limit: 7, offset: 2, total: true } },
  { rule: 'an ungrouped query', offer: ['by_day'], query: { dimensions: ['orders.status'], ungrouped: true, limit: 5 } },
  { rule: 'the first rollup that answers', offer: ['by_week', 'by_day'], answers: 'by_day', query: { measures: ['orders.count'], timeDimensions: [month()] } },
];

describe.each(warehouseTargets({ schemaPrefix: 'semantic_rollups' }))('rollups answer as the warehouse on $name', (target) => {
  let db: ScratchWarehouse;
  let model: DataModel;
  let store: TestRollupStore;
  const built = new Map<Build, AvailableRollup>();
  beforeAll(async () => {
    db = await target.open();
    await writeSample(db.warehouse, { lineItems: 4000, schema: db.schema });
    model = compileRollupModel(db.table);
    store = await openRollupStore(model, db.warehouse);
    for (const [name, build] of Object.entries(BUILDS)) built.set(name as Build, await store.build(build.id, 'timezone' in build ? { timezone: build.timezone } : {}));
  }, 120_000);
  afterAll(async () => {
    await store?.close();
    await db?.close();
  });

  it.each(CASES)('$rule', async ({ offer, query, answers, caller: who, same }) => {
    const rollups = offer.map((name) => built.get(name) as AvailableRollup);
    const plan = planQuery(model, query, { dialect: db.warehouse.dialect, rollups, cache: false, ...(who ? { caller: who } : {}) });
    const warehouse = await load(model, same ?? query, { warehouse: db.warehouse, ...(who ? { caller: who } : {}) });
    if (!answers) {
      expect(plan.rollup).toBeUndefined();
      expect(plan.usedPreAggregations).toEqual({});
      return;
    }
    const expected = built.get(answers) as AvailableRollup;
    expect(plan.rollup).toEqual({ id: expected.id, tableName: expected.id.replace('.', '_'), versions: expected.versions });
    expect(Object.keys(plan.usedPreAggregations)).toEqual([expected.id.replace('.', '_')]);
    expect(plan.sql).toContain(expected.from);
    const fromRollup = await runPlan(plan, { warehouse: store.duckdb });
    expect((warehouse.data as unknown[]).length).toBeGreaterThan(0);
    if (query.order) expect(normalizeRows(fromRollup.data as Array<Record<string, unknown>>)).toEqual(normalizeRows(warehouse.data as Array<Record<string, unknown>>));
    else expect(sortedValues(fromRollup.data as Array<Record<string, unknown>>)).toEqual(sortedValues(warehouse.data as Array<Record<string, unknown>>));
    expect(fromRollup.total).toEqual(warehouse.total);
  });
});
