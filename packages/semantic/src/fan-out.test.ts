import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile } from './compiler/compile.js';
import { load } from './load.js';
import type { Caller } from './model.js';
import { postgresDialect } from './dialects/postgres.js';
import { planQuery } from './planner/plan.js';
import type { Query } from './planner/query.js';
import { normalizeRows, sampleTargets, type SampleDb } from './test-support/sample-warehouses.js';

const ADMIN: Caller = { groups: ['admin'], userAttributes: {}, securityContext: {} };

/**
 * Measures across one-to-many joins, planned by aggregating the far side per near-side row where
 * the measures allow it and by distinct rows where they do not; each against hand-written SQL.
 */
const CASES: Array<{ name: string; query: Query; sql: (t: (name: string) => string) => string }> = [
  {
    name: 'counts on both sides with a filter on the near side',
    query: {
      measures: ['customers.count', 'orders.count', 'orders.completed_count'],
      dimensions: ['customers.city'],
      filters: [{ member: 'customers.country', operator: 'equals', values: ['UK', 'USA'] }],
    },
    sql: (t) => `SELECT c.city, count(DISTINCT c.id), count(o.id), count(CASE WHEN o.status = 'completed' THEN 1 END)
      FROM ${t('customers')} c LEFT JOIN ${t('orders')} o ON o.customer_id = c.id WHERE c.country IN ('UK', 'USA') GROUP BY 1`,
  },
  {
    name: 'min, max and sum on the far side beside a count on the near side',
    query: {
      measures: ['orders.count', 'line_items.min_price', 'line_items.max_price', 'line_items.total_quantity'],
      dimensions: ['orders.status'],
    },
    sql: (t) => `SELECT o.status, count(DISTINCT o.id), min(li.price), max(li.price), sum(li.quantity)
      FROM ${t('orders')} o LEFT JOIN ${t('line_items')} li ON li.order_id = o.id GROUP BY 1`,
  },
  {
    name: 'a distinct count on the far side: the near side counted by distinct keys over the plain join',
    query: { measures: ['orders.count', 'line_items.order_count'], dimensions: ['orders.status'] },
    sql: (t) => `SELECT o.status, count(DISTINCT o.id), count(DISTINCT li.order_id)
      FROM ${t('orders')} o LEFT JOIN ${t('line_items')} li ON li.order_id = o.id GROUP BY 1`,
  },
  {
    name: 'a filter on the far side: the near side counted by distinct keys over the plain join',
    query: {
      measures: ['orders.count', 'line_items.count'],
      dimensions: ['orders.status'],
      filters: [{ member: 'line_items.quantity', operator: 'gt', values: ['2'] }],
    },
    sql: (t) => `SELECT o.status, count(DISTINCT o.id), count(li.id)
      FROM ${t('orders')} o LEFT JOIN ${t('line_items')} li ON li.order_id = o.id WHERE li.quantity > 2 GROUP BY 1`,
  },
  {
    name: 'two hops: the far cube is pre-aggregated and the middle one still fans out',
    query: { measures: ['customers.count', 'line_items.revenue', 'line_items.count'], dimensions: ['customers.segment'] },
    sql: (t) => `SELECT c.segment, count(DISTINCT c.id), sum(li.quantity * li.price), count(li.id) FROM ${t('customers')} c
      LEFT JOIN ${t('orders')} o ON o.customer_id = c.id LEFT JOIN ${t('line_items')} li ON li.order_id = o.id GROUP BY 1`,
  },
  {
    name: 'two fanned-out cubes by a far-side dimension, a count sharing its input with the primary key',
    query: { measures: ['customers.count', 'orders.count', 'orders.customer_count'], dimensions: ['line_items.quantity'] },
    sql: (t) => `SELECT li.quantity, count(DISTINCT c.id), count(DISTINCT o.id), count(DISTINCT o.customer_id) FROM ${t('customers')} c
      LEFT JOIN ${t('orders')} o ON o.customer_id = c.id LEFT JOIN ${t('line_items')} li ON li.order_id = o.id GROUP BY 1`,
  },
  {
    name: 'a measure filter over a pre-aggregated measure',
    query: {
      measures: ['customers.count', 'orders.count'],
      dimensions: ['customers.city'],
      filters: [{ member: 'orders.count', operator: 'gt', values: ['400'] }],
    },
    sql: (
      t,
    ) => `SELECT c.city, count(DISTINCT c.id), count(o.id) FROM ${t('customers')} c LEFT JOIN ${t('orders')} o ON o.customer_id = c.id
      GROUP BY 1 HAVING count(o.id) > 400`,
  },
  {
    name: 'a near-side filter narrows the far side before it is aggregated',
    query: {
      measures: ['orders.count', 'line_items.total_quantity', 'line_items.max_price'],
      dimensions: ['orders.status'],
      filters: [{ member: 'orders.status', operator: 'equals', values: ['completed', 'shipped'] }],
    },
    sql: (t) => `SELECT o.status, count(DISTINCT o.id), sum(li.quantity), max(li.price)
      FROM ${t('orders')} o LEFT JOIN ${t('line_items')} li ON li.order_id = o.id WHERE o.status IN ('completed', 'shipped') GROUP BY 1`,
  },
  {
    name: 'a near-side segment and date range narrow the far side, a filter on another cube stays outside',
    query: {
      measures: ['orders.count', 'line_items.revenue'],
      dimensions: ['customers.country'],
      segments: ['orders.completed'],
      filters: [{ member: 'customers.country', operator: 'notEquals', values: ['UK'] }],
      timeDimensions: [{ dimension: 'orders.created_at', dateRange: ['2024-01-01', '2024-06-30'] }],
    },
    sql: (t) => `SELECT c.country, count(DISTINCT o.id), sum(li.quantity * li.price) FROM ${t('orders')} o
      LEFT JOIN ${t('customers')} c ON c.id = o.customer_id LEFT JOIN ${t('line_items')} li ON li.order_id = o.id
      WHERE o.status = 'completed' AND (c.country <> 'UK' OR c.country IS NULL)
        AND o.created_at >= '2024-01-01' AND o.created_at < '2024-07-01' GROUP BY 1`,
  },
  {
    name: 'an OR across the near cube and another cube is not pushed into the far side',
    query: {
      measures: ['orders.count', 'line_items.count'],
      dimensions: ['orders.status'],
      filters: [
        {
          or: [
            { member: 'orders.status', operator: 'equals', values: ['completed'] },
            { member: 'customers.country', operator: 'equals', values: ['UK'] },
          ],
        },
      ],
    },
    sql: (t) => `SELECT o.status, count(DISTINCT o.id), count(li.id) FROM ${t('orders')} o
      LEFT JOIN ${t('customers')} c ON c.id = o.customer_id LEFT JOIN ${t('line_items')} li ON li.order_id = o.id
      WHERE o.status = 'completed' OR c.country = 'UK' GROUP BY 1`,
  },
  {
    name: 'no dimensions',
    query: { measures: ['customers.count', 'orders.count', 'orders.customer_count'] },
    sql: (t) => `SELECT count(DISTINCT c.id), count(o.id), count(DISTINCT o.customer_id)
      FROM ${t('customers')} c LEFT JOIN ${t('orders')} o ON o.customer_id = c.id`,
  },
];

/** Parents with a budget and children with amounts: parent 1 has three children, parent 2 one, parent 3 one. */
const FAMILY = `cubes:
  - name: parents
    sql: SELECT 1 AS id, 100 AS budget, 'x' AS kind UNION ALL SELECT 2, 50, 'x' UNION ALL SELECT 3, 7, 'y'
    joins:
      - name: children
        relationship: one_to_many
        sql: "{CUBE}.id = {children}.parent_id"
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true, public: true }
      - { name: kind, sql: kind, type: string }
    measures:
      - { name: count, type: count }
      - { name: big_count, type: count, filters: [{ sql: "{CUBE}.budget > 60" }] }
      - { name: budget, type: sum, sql: budget }
  - name: children
    sql: SELECT 10 AS id, 1 AS parent_id, 5 AS amount UNION ALL SELECT 11, 1, 7 UNION ALL SELECT 12, 1, 9 UNION ALL SELECT 13, 2, 8 UNION ALL SELECT 14, 3, 1
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true }
      - { name: amount, sql: amount, type: number }
    measures:
      - { name: count, type: count }
`;

describe.each(sampleTargets())('fan-out plans on $name', (target) => {
  let db: SampleDb;
  beforeAll(async () => {
    db = await target.open();
  });
  afterAll(async () => {
    await db?.close();
  });

  it('a near-side row without far-side rows counts 0 and sums to null, as over the plain join', async () => {
    const compiled = compile({
      'model/family.yml': `cubes:
  - name: parents
    sql: SELECT 1 AS id UNION ALL SELECT 2 AS id
    joins:
      - name: children
        relationship: one_to_many
        sql: "{CUBE}.id = {children}.parent_id"
    dimensions:
      - name: id
        sql: id
        type: number
        primary_key: true
        public: true
    measures:
      - name: count
        type: count
  - name: children
    sql: SELECT 10 AS id, 1 AS parent_id, 5 AS amount UNION ALL SELECT 11 AS id, 1 AS parent_id, 7 AS amount
    dimensions:
      - name: id
        sql: id
        type: number
        primary_key: true
    measures:
      - name: count
        type: count
      - name: total
        type: sum
        sql: amount
      - name: smallest
        type: min
        sql: amount
`,
    });
    const query = {
      measures: ['parents.count', 'children.count', 'children.total', 'children.smallest'],
      dimensions: ['parents.id'],
      order: { 'parents.id': 'asc' as const },
    };
    const response = await load(compiled.model, query, { warehouse: db.warehouse, caller: ADMIN });
    expect(normalizeRows(response.data)).toEqual(
      normalizeRows([
        { 'parents.id': 1, 'parents.count': 1, 'children.count': 2, 'children.total': 12, 'children.smallest': 5 },
        { 'parents.id': 2, 'parents.count': 1, 'children.count': 0, 'children.total': null, 'children.smallest': null },
      ]),
    );
  });

  it('a sum of the near side under a far-side filter is taken over its distinct rows, a count by its distinct keys', async () => {
    const compiled = compile({ 'model/family.yml': FAMILY });
    const query = {
      measures: ['parents.count', 'parents.big_count', 'parents.budget', 'children.count'],
      dimensions: ['parents.kind'],
      filters: [{ member: 'children.amount', operator: 'gt' as const, values: ['6'] }],
      order: { 'parents.kind': 'asc' as const },
    };
    const response = await load(compiled.model, query, { warehouse: db.warehouse, caller: ADMIN });
    // Parent 1 has two children over 6, parent 2 one, parent 3 none: its budget counts once, not twice.
    expect(normalizeRows(response.data)).toEqual(
      normalizeRows([{ 'parents.kind': 'x', 'parents.count': 2, 'parents.big_count': 1, 'parents.budget': 150, 'children.count': 3 }]),
    );
  });

  it('a sum of the near side under a near-side filter: the far side aggregated over the kept near rows only', async () => {
    const compiled = compile({ 'model/family.yml': FAMILY });
    const query = {
      measures: ['parents.budget', 'parents.count', 'children.count'],
      dimensions: ['parents.id'],
      filters: [{ member: 'parents.kind', operator: 'equals' as const, values: ['x'] }],
      order: { 'parents.id': 'asc' as const },
    };
    expect(planQuery(compiled.model, query, { dialect: db.warehouse.dialect, caller: ADMIN }).sql).toContain('children__partials');
    const response = await load(compiled.model, query, { warehouse: db.warehouse, caller: ADMIN });
    expect(normalizeRows(response.data)).toEqual(
      normalizeRows([
        { 'parents.id': 1, 'parents.budget': 100, 'parents.count': 1, 'children.count': 3 },
        { 'parents.id': 2, 'parents.budget': 50, 'parents.count': 1, 'children.count': 1 },
      ]),
    );
  });

  it.each(CASES)('$name', async ({ query, sql }) => {
    const keys = [...(query.dimensions ?? []), ...(query.measures ?? [])];
    const response = await load(db.model, query, { warehouse: db.warehouse, caller: ADMIN });
    const engine = normalizeRows(response.data.map((row) => Object.fromEntries(keys.map((key) => [key, row[key]]))));
    // Columns renamed by position: PostgreSQL names every count(...) column "count".
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
});

describe('plans under row conditions', () => {
  const model = compile({
    'model/family.yml': `cubes:
  - name: parents
    sql_table: parents
    joins:
      - { name: children, relationship: one_to_many, sql: "{CUBE}.id = {children}.parent_id" }
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true }
      - { name: kind, sql: kind, type: string }
    measures:
      - { name: count, type: count }
      - { name: budget, type: sum, sql: budget }
  - name: children
    sql_table: children
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true }
    measures:
      - { name: amount, type: sum, sql: amount }
`,
  }).model;
  const sql = (query: Query): string => planQuery(model, query, { dialect: postgresDialect, caller: ADMIN }).sql;
  const partials = (query: Query): string => {
    const text = sql(query);
    return text.slice(text.indexOf('LEFT JOIN ('), text.indexOf('AS "children__partials"'));
  };

  it('a near-side sum: the far side is aggregated only over the near rows the query keeps', () => {
    const narrowed = partials({
      measures: ['parents.budget', 'children.amount'],
      filters: [{ member: 'parents.kind', operator: 'equals', values: ['x'] }],
    });
    expect(narrowed).toMatch(
      /FROM parents AS "parents"\nINNER JOIN children AS "children" ON [^\n]*\nWHERE \("parents".kind = \$1\)\nGROUP BY 1/,
    );
  });

  it('without row conditions, every far row is aggregated once by its join column', () => {
    const whole = partials({ measures: ['parents.budget', 'children.amount'], dimensions: ['parents.kind'] });
    expect(whole).toContain('FROM children AS "children"\nGROUP BY 1');
    expect(whole).not.toContain('WHERE');
  });

  it('near-side counts only: under a condition the plain join counts distinct keys, without one the far side is aggregated first', () => {
    const filtered = sql({
      measures: ['parents.count', 'children.amount'],
      filters: [{ member: 'parents.kind', operator: 'equals', values: ['x'] }],
    });
    expect(filtered).toContain('count(DISTINCT "parents".id)');
    expect(filtered).not.toContain('children__partials');
    expect(sql({ measures: ['parents.count', 'children.amount'] })).toContain('children__partials');
  });
});
