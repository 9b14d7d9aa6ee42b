import { describe, expect, it } from 'vitest';
import { compile } from '../compiler/compile.js';
import { duckdbDialect } from '../dialects/duckdb.js';
import { postgresDialect } from '../dialects/postgres.js';
import { QueryError } from '../errors.js';
import { sampleModelFiles } from '../sample/sample.js';
import { planQuery } from './plan.js';
import type { Query } from './query.js';

const model = compile(sampleModelFiles()).model;
const ADMIN = { groups: ['admin'], userAttributes: {}, securityContext: {} };
const NOW = new Date('2024-05-15T12:00:00Z');

/** One query per planner feature; the SQL for both dialects is kept as golden text in __snapshots__. */
const FEATURES: Record<string, Query> = {
  'measures only': { measures: ['orders.count', 'line_items.revenue'] },
  'dimension and default order': { measures: ['orders.count'], dimensions: ['orders.status'] },
  'case dimension': { measures: ['orders.count'], dimensions: ['orders.status_group'] },
  'measure with filters and calculated measure': { measures: ['orders.completed_share'] },
  'count distinct and approx': { measures: ['orders.customer_count', 'orders.customer_count_approx'] },
  'time dimension with granularity and range': {
    measures: ['orders.count'],
    timeDimensions: [{ dimension: 'orders.created_at', granularity: 'quarter', dateRange: ['2023-01-01', '2023-12-31'] }],
  },
  'time zone': {
    measures: ['orders.count'],
    timezone: 'Europe/Berlin',
    timeDimensions: [{ dimension: 'orders.created_at', granularity: 'day', dateRange: 'last week' }],
  },
  'relative range from … to …': {
    measures: ['orders.count'],
    timeDimensions: [{ dimension: 'orders.created_at', dateRange: 'from 7 days ago to now' }],
  },
  'many-to-one join': { measures: ['line_items.revenue'], dimensions: ['products.category'] },
  'fan-out across one-to-many': { measures: ['customers.count', 'orders.count'], dimensions: ['customers.country'] },
  'fanned-out counts by their distinct keys': {
    measures: ['customers.count', 'orders.count', 'orders.customer_count'],
    dimensions: ['line_items.quantity'],
  },
  segment: { measures: ['customers.count'], segments: ['customers.in_usa'] },
  'filters and nested or': {
    measures: ['orders.count'],
    filters: [
      {
        or: [
          { member: 'orders.status', operator: 'equals', values: ['a', 'b'] },
          { member: 'orders.status', operator: 'contains', values: ['c'] },
        ],
      },
    ],
  },
  'measure filter (HAVING)': {
    measures: ['orders.count'],
    dimensions: ['orders.status'],
    filters: [{ member: 'orders.count', operator: 'gte', values: ['10'] }],
  },
  'order, limit, offset': {
    measures: ['orders.count'],
    dimensions: ['orders.status'],
    order: [['orders.status', 'asc']],
    limit: 5,
    offset: 10,
  },
  ungrouped: { dimensions: ['orders.id', 'orders.status'], ungrouped: true },
  'view with join path and row-level policy': { measures: ['sales.revenue'], dimensions: ['sales.customers_country'] },
  'join hints': { measures: ['orders.count'], dimensions: ['customers.city'], joinHints: [['orders', 'customers']] },
  total: { measures: ['orders.count'], dimensions: ['orders.status'], total: true },
};

describe.each([duckdbDialect, postgresDialect])('SQL for $name', (dialect) => {
  it.each(Object.entries(FEATURES))('%s', (_name, query) => {
    const caller = query.measures?.[0]?.startsWith('sales.')
      ? { groups: ['regional'], userAttributes: { country: 'UK' }, securityContext: {} }
      : ADMIN;
    const plan = planQuery(model, query, { dialect, caller, now: NOW });
    expect({ sql: plan.sql, params: plan.params, total: plan.total }).toMatchSnapshot();
  });
});

describe('planning errors', () => {
  const plan = (query: unknown) => () => planQuery(model, query, { dialect: duckdbDialect, caller: ADMIN });
  it.each([
    [{ measures: ['x.count'] }, "Cube 'x' not found for path 'x.count'"],
    [{ measures: ['orders.nope'] }, "'nope' not found for path 'orders.nope'"],
    [{ measures: ['orders.status'] }, "'orders.status' is not a measure"],
    [{ measures: ['orders.count'], limit: 50_001 }, 'The query limit has been exceeded: the maximum is 50000'],
    [
      { measures: ['orders.count'], timeDimensions: [{ dimension: 'orders.status', granularity: 'day' }] },
      "Time dimension 'orders.status' must be of type time, not string",
    ],
    [
      {
        measures: ['orders.count'],
        filters: [
          {
            or: [
              { member: 'orders.count', operator: 'gt', values: ['1'] },
              { member: 'orders.status', operator: 'set' },
            ],
          },
        ],
      },
      'You cannot use dimension and measure in same condition',
    ],
    [{ measures: ['orders.count'], order: { 'orders.nope': 'asc' } }, "'nope' not found for path 'orders.nope'"],
    [
      { measures: ['orders.count'], order: { 'orders.completed': 'asc' } },
      "Order member 'orders.completed' is a segment; order by a measure or a dimension",
    ],
    [{ measures: ['orders.count'], timezone: 'Mars/Olympus' }, 'Unknown time zone: Mars/Olympus'],
    [
      { measures: ['orders.count'], dimensions: ['products.category'], joinHints: [['products', 'orders']] },
      "Can't find join path to join 'products', 'orders'",
    ],
    [{ measures: ['orders.count'], surprise: true }, '"surprise" is not allowed'],
  ])('%j', (query, message) => {
    expect(plan(query)).toThrow(new QueryError(message));
  });

  it('refuses to aggregate a fanned-out cube without a primary key', () => {
    const m = compile({
      'model/m.yml': `cubes:
  - name: a
    sql_table: a
    joins:
      - name: b
        relationship: one_to_many
        sql: "{CUBE}.id = {b}.a_id"
    dimensions:
      - name: name
        sql: name
        type: string
    measures:
      - name: total
        type: sum
        sql: amount
  - name: b
    sql_table: b
    dimensions:
      - name: id
        sql: id
        type: number
        primary_key: true
    measures:
      - name: count
        type: count
`,
    }).model;
    expect(() => planQuery(m, { measures: ['a.total', 'b.count'] }, { dialect: duckdbDialect })).toThrow(/Cube a needs a primary key/);
  });

  it('keeps default limit and Cube default ordering', () => {
    const p = planQuery(model, { measures: ['orders.count'], dimensions: ['orders.status'] }, { dialect: duckdbDialect, caller: ADMIN });
    expect(p.query.limit).toBe(10_000);
    expect(p.query.order).toEqual([{ id: 'orders.count', desc: true }]);
    const d = planQuery(model, { dimensions: ['orders.status'] }, { dialect: duckdbDialect, caller: ADMIN });
    expect(d.query.order).toEqual([{ id: 'orders.status', desc: false }]);
  });
});
