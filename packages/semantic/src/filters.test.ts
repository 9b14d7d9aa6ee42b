import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QueryError } from './errors.js';
import { load } from './load.js';
import type { Caller } from './model.js';
import type { Filter } from './planner/query.js';
import { sampleTargets, type SampleDb } from './test-support/sample-warehouses.js';

const ADMIN: Caller = { groups: ['admin'], userAttributes: {}, securityContext: {} };

/** Every operator of Cube's query format, each against the WHERE clause a person would write. */
const OPERATORS: Array<{ op: string; cube: 'customers' | 'orders'; filter: Filter; where: string }> = [
  {
    op: 'equals',
    cube: 'customers',
    filter: { member: 'customers.city', operator: 'equals', values: ['London'] },
    where: "city = 'London'",
  },
  {
    op: 'equals (several, with null)',
    cube: 'customers',
    filter: { member: 'customers.city', operator: 'equals', values: ['London', 'Paris', null] },
    where: "city IN ('London', 'Paris') OR city IS NULL",
  },
  {
    op: 'notEquals',
    cube: 'customers',
    filter: { member: 'customers.city', operator: 'notEquals', values: ['London'] },
    where: "city <> 'London' OR city IS NULL",
  },
  {
    op: 'contains',
    cube: 'customers',
    filter: { member: 'customers.city', operator: 'contains', values: ['ON', 'yo'] },
    where: "lower(city) LIKE '%on%' OR lower(city) LIKE '%yo%'",
  },
  {
    op: 'notContains',
    cube: 'customers',
    filter: { member: 'customers.city', operator: 'notContains', values: ['on'] },
    where: "lower(city) NOT LIKE '%on%' OR city IS NULL",
  },
  {
    op: 'startsWith',
    cube: 'customers',
    filter: { member: 'customers.city', operator: 'startsWith', values: ['l'] },
    where: "lower(city) LIKE 'l%'",
  },
  {
    op: 'notStartsWith',
    cube: 'customers',
    filter: { member: 'customers.city', operator: 'notStartsWith', values: ['L'] },
    where: "lower(city) NOT LIKE 'l%' OR city IS NULL",
  },
  {
    op: 'endsWith',
    cube: 'customers',
    filter: { member: 'customers.city', operator: 'endsWith', values: ['n'] },
    where: "lower(city) LIKE '%n'",
  },
  {
    op: 'notEndsWith',
    cube: 'customers',
    filter: { member: 'customers.city', operator: 'notEndsWith', values: ['n'] },
    where: "lower(city) NOT LIKE '%n' OR city IS NULL",
  },
  {
    op: 'contains treats % literally',
    cube: 'customers',
    filter: { member: 'customers.city', operator: 'contains', values: ['%'] },
    where: '1 = 0',
  },
  {
    // As a LIKE wildcard, _ would match customer11@…, customer12@…
    op: 'contains treats _ literally',
    cube: 'customers',
    filter: { member: 'customers.email', operator: 'contains', values: ['r_1'] },
    where: "strpos(email, 'r_1') > 0",
  },
  {
    op: 'startsWith and endsWith treat % literally',
    cube: 'customers',
    filter: {
      or: [
        { member: 'customers.email', operator: 'startsWith', values: ['%1'] },
        { member: 'customers.email', operator: 'endsWith', values: ['%.com'] },
      ],
    },
    where: '1 = 0',
  },
  { op: 'gt', cube: 'customers', filter: { member: 'customers.id', operator: 'gt', values: ['100'] }, where: 'id > 100' },
  { op: 'gte', cube: 'customers', filter: { member: 'customers.id', operator: 'gte', values: ['100'] }, where: 'id >= 100' },
  { op: 'lt', cube: 'customers', filter: { member: 'customers.id', operator: 'lt', values: ['100'] }, where: 'id < 100' },
  { op: 'lte', cube: 'customers', filter: { member: 'customers.id', operator: 'lte', values: ['100'] }, where: 'id <= 100' },
  { op: 'set', cube: 'customers', filter: { member: 'customers.city', operator: 'set' }, where: 'city IS NOT NULL' },
  { op: 'notSet', cube: 'customers', filter: { member: 'customers.city', operator: 'notSet' }, where: 'city IS NULL' },
  {
    op: 'inDateRange',
    cube: 'orders',
    filter: { member: 'orders.created_at', operator: 'inDateRange', values: ['2023-02-01', '2023-02-28'] },
    where: "created_at >= TIMESTAMP '2023-02-01 00:00:00' AND created_at < TIMESTAMP '2023-03-01 00:00:00'",
  },
  {
    op: 'notInDateRange',
    cube: 'orders',
    filter: { member: 'orders.created_at', operator: 'notInDateRange', values: ['2023-02-01', '2023-02-28'] },
    where: "created_at < TIMESTAMP '2023-02-01 00:00:00' OR created_at >= TIMESTAMP '2023-03-01 00:00:00'",
  },
  {
    op: 'beforeDate',
    cube: 'orders',
    filter: { member: 'orders.created_at', operator: 'beforeDate', values: ['2023-06-01'] },
    where: "created_at < TIMESTAMP '2023-06-01 00:00:00'",
  },
  {
    op: 'beforeOrOnDate',
    cube: 'orders',
    filter: { member: 'orders.created_at', operator: 'beforeOrOnDate', values: ['2023-06-01T12:00:00.000'] },
    where: "created_at <= TIMESTAMP '2023-06-01 12:00:00'",
  },
  {
    op: 'afterDate',
    cube: 'orders',
    filter: { member: 'orders.created_at', operator: 'afterDate', values: ['2024-06-01'] },
    where: "created_at > TIMESTAMP '2024-06-01 00:00:00'",
  },
  {
    op: 'afterOrOnDate',
    cube: 'orders',
    filter: { member: 'orders.created_at', operator: 'afterOrOnDate', values: ['2024-06-01'] },
    where: "created_at >= TIMESTAMP '2024-06-01 00:00:00'",
  },
  {
    op: 'measureFilter',
    cube: 'orders',
    filter: { member: 'orders.completed_count', operator: 'measureFilter' },
    where: "status = 'completed'",
  },
  // A boolean dimension is an expression (`status = 'completed'`): compared without parentheses it read as
  // `status = 'completed' = $1`, a syntax error on both warehouses.
  {
    op: 'equals true on a boolean expression',
    cube: 'orders',
    filter: { member: 'orders.is_completed', operator: 'equals', values: [true] },
    where: "status = 'completed'",
  },
  {
    op: 'equals "false" on a boolean expression',
    cube: 'orders',
    filter: { member: 'orders.is_completed', operator: 'equals', values: ['false'] },
    where: "status <> 'completed'",
  },
  {
    op: 'equals with several values on a boolean expression',
    cube: 'orders',
    filter: { member: 'orders.is_completed', operator: 'equals', values: ['true', 'false'] },
    where: 'status IS NOT NULL',
  },
  {
    op: 'notEquals on a boolean expression',
    cube: 'orders',
    filter: { member: 'orders.is_completed', operator: 'notEquals', values: [true] },
    where: "status <> 'completed' OR status IS NULL",
  },
  {
    op: 'notSet on a boolean expression',
    cube: 'orders',
    filter: { member: 'orders.is_completed', operator: 'notSet' },
    where: 'status IS NULL',
  },
  {
    op: 'and / or',
    cube: 'orders',
    filter: {
      or: [
        { member: 'orders.status', operator: 'equals', values: ['returned'] },
        {
          and: [
            { member: 'orders.status', operator: 'equals', values: ['completed'] },
            { member: 'orders.created_at', operator: 'beforeDate', values: ['2023-02-01'] },
          ],
        },
      ],
    },
    where: "status = 'returned' OR (status = 'completed' AND created_at < TIMESTAMP '2023-02-01 00:00:00')",
  },
];

const INJECTION = "x'); DROP TABLE orders; --";

describe.each(sampleTargets())('filters and access on $name', (target) => {
  let db: SampleDb;
  beforeAll(async () => {
    db = await target.open();
  });
  afterAll(async () => {
    await db?.close();
  });

  const count = async (sql: string): Promise<number> => Number(Object.values((await db.warehouse.query(sql, [])).rows[0] ?? {})[0]);

  it.each(OPERATORS)('$op', async ({ cube, filter, where }) => {
    const response = await load(db.model, { measures: [`${cube}.count`], filters: [filter] }, { warehouse: db.warehouse, caller: ADMIN });
    const expected = await count(`SELECT count(*) FROM ${db.table(cube)} WHERE ${where}`);
    expect(Number(response.data[0]?.[`${cube}.count`])).toBe(expected);
  });

  it('relative date ranges are computed from now in the query time zone', async () => {
    const now = new Date('2023-07-15T03:00:00Z'); // still 14 July in New York
    const response = await load(
      db.model,
      {
        measures: ['orders.count'],
        timezone: 'America/New_York',
        timeDimensions: [{ dimension: 'orders.created_at', dateRange: 'last 7 days' }],
      },
      { warehouse: db.warehouse, caller: ADMIN, now },
    );
    // 7 to 13 July in New York (UTC-4 in summer) is 7 July 04:00 to 14 July 04:00 UTC.
    const expected = await count(
      `SELECT count(*) FROM ${db.table('orders')} WHERE created_at >= TIMESTAMP '2023-07-07 04:00:00' AND created_at < TIMESTAMP '2023-07-14 04:00:00'`,
    );
    expect(Number(response.data[0]?.['orders.count'])).toBe(expected);
  });

  describe('access policies', () => {
    const caller = (groups: string[], userAttributes: Record<string, unknown> = {}): Caller => ({
      groups,
      userAttributes,
      securityContext: {},
    });
    const query = { measures: ['sales.revenue'], dimensions: ['sales.customers_country'] };

    it('an admin sees every country', async () => {
      const response = await load(db.model, query, { warehouse: db.warehouse, caller: caller(['admin']) });
      expect(response.data.length).toBe(5);
    });

    it('a regional user sees only the rows of their country', async () => {
      const response = await load(db.model, query, { warehouse: db.warehouse, caller: caller(['regional'], { country: 'UK' }) });
      expect(response.data.map((r) => r['sales.customers_country'])).toEqual(['UK']);
    });

    it('a regional user without the attribute sees no rows rather than all', async () => {
      const response = await load(db.model, query, { warehouse: db.warehouse, caller: caller(['regional']) });
      expect(response.data).toEqual([]);
    });

    it("everyone else cannot use members outside their policy: Cube's hidden-member error", async () => {
      await expect(load(db.model, query, { warehouse: db.warehouse, caller: caller([]) })).rejects.toThrow(
        /^You requested hidden member: 'sales__customers_country'\. Please make it visible using `shown: true`/,
      );
      const totals = await load(db.model, { measures: ['sales.revenue'] }, { warehouse: db.warehouse, caller: caller([]) });
      expect(totals.data).toHaveLength(1);
    });

    it('member-level excludes hide a cube member from everyone but the admin', async () => {
      await expect(
        load(db.model, { dimensions: ['customers.email'] }, { warehouse: db.warehouse, caller: caller(['analyst']) }),
      ).rejects.toThrow(QueryError);
      const response = await load(
        db.model,
        { dimensions: ['customers.email'], limit: 1 },
        { warehouse: db.warehouse, caller: caller(['admin']) },
      );
      expect(response.data).toHaveLength(1);
    });

    it('a policy value carrying SQL is a parameter, never SQL', async () => {
      const response = await load(db.model, query, { warehouse: db.warehouse, caller: caller(['regional'], { country: INJECTION }) });
      expect(response.data).toEqual([]);
      expect(await count(`SELECT count(*) FROM ${db.table('orders')}`)).toBeGreaterThan(0);
    });
  });

  it('strings in every position of a query reach the database only as parameters or are refused', async () => {
    const opts = { warehouse: db.warehouse, caller: ADMIN };
    const refused = [
      { measures: [INJECTION] },
      { measures: [`orders.${INJECTION}`] },
      { dimensions: [`orders.status; ${INJECTION}`] },
      { segments: [INJECTION] },
      { measures: ['orders.count'], order: { [INJECTION]: 'asc' } },
      { measures: ['orders.count'], order: { 'orders.count': INJECTION } },
      { measures: ['orders.count'], timezone: INJECTION },
      { measures: ['orders.count'], timeDimensions: [{ dimension: INJECTION }] },
      { measures: ['orders.count'], timeDimensions: [{ dimension: 'orders.created_at', granularity: INJECTION }] },
      { measures: ['orders.count'], timeDimensions: [{ dimension: 'orders.created_at', dateRange: INJECTION }] },
      { measures: ['orders.count'], timeDimensions: [{ dimension: 'orders.created_at', dateRange: [INJECTION, '2024-01-01'] }] },
      { measures: ['orders.count'], filters: [{ member: INJECTION, operator: 'equals', values: ['a'] }] },
      { measures: ['orders.count'], filters: [{ member: 'orders.status', operator: INJECTION, values: ['a'] }] },
      { measures: ['orders.count'], filters: [{ member: 'orders.created_at', operator: 'beforeDate', values: [INJECTION] }] },
      { measures: ['orders.count'], limit: INJECTION },
      { measures: ['orders.count'], offset: INJECTION },
      { measures: ['orders.count'], joinHints: [[INJECTION, 'orders']] },
    ];
    for (const q of refused) await expect(load(db.model, q, opts), JSON.stringify(q)).rejects.toThrow(QueryError);
    for (const operator of ['equals', 'notEquals', 'contains', 'startsWith', 'endsWith', 'gt']) {
      const member = operator === 'gt' ? 'orders.count' : 'orders.status';
      const response = await load(
        db.model,
        { measures: ['orders.count'], dimensions: ['orders.status'], filters: [{ member, operator, values: [INJECTION] }] },
        opts,
      ).catch((e: unknown) => e);
      // A number measure compared with text may be refused by the database; it must never run the text.
      if (!(response instanceof Error)) expect(Array.isArray((response as { data: unknown }).data)).toBe(true);
    }
    expect(await count(`SELECT count(*) FROM ${db.table('orders')}`)).toBe(5000);
  });
});
