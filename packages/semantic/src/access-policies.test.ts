import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { load } from './load.js';
import { meta } from './meta.js';
import type { Caller, DataModel } from './model.js';
import type { Query } from './planner/query.js';
import { caller, compileAccessModel } from './test-support/access-model.js';
import { sampleTargets, sortedValues, type SampleDb } from './test-support/sample-warehouses.js';

const HIDDEN = /^You requested hidden member: '([a-z_]+)'\. Please make it visible using `shown: true`/;

describe.each(sampleTargets())('access policies on $name', (target) => {
  let db: SampleDb;
  let model: DataModel;
  beforeAll(async () => {
    db = await target.open();
    model = compileAccessModel(db);
  });
  afterAll(async () => {
    await db?.close();
  });

  const engine = async (query: Query, who: Caller): Promise<string[]> =>
    sortedValues((await load(model, query, { warehouse: db.warehouse, caller: who })).data);
  const handWritten = async (sql: string): Promise<string[]> => sortedValues((await db.warehouse.query(sql, [])).rows);
  const t = (name: string): string => db.table(name);

  describe('which cubes’ row-level policies apply (item 7)', () => {
    it('a named member: the cube’s own policy filters its rows', async () => {
      expect(await engine({ measures: ['customers.count'], dimensions: ['customers.segment'] }, caller([], { country: 'UK' }))).toEqual(
        await handWritten(`SELECT segment, count(*) FROM ${t('customers')} WHERE country = 'UK' GROUP BY 1`),
      );
    });

    it('a join hop: orders, joined only to reach customers, still has its rows filtered', async () => {
      const query = { measures: ['line_items.count'], dimensions: ['customers.country'] };
      const expected = await handWritten(
        `SELECT c.country, count(*) FROM ${t('line_items')} li JOIN ${t('orders')} o ON li.order_id = o.id
         JOIN ${t('customers')} c ON o.customer_id = c.id WHERE o.status = 'shipped' GROUP BY 1`,
      );
      expect(await engine(query, caller([], { status: 'shipped' }))).toEqual(expected);
      // Without the status the orders policy lets every row through: the two answers must differ.
      expect(await engine(query, caller([]))).not.toEqual(expected);
    });

    it('a template reference: {orders.status} in a line_items dimension brings the orders policy', async () => {
      expect(
        await engine({ measures: ['line_items.count'], dimensions: ['line_items.order_status'] }, caller([], { status: 'returned' })),
      ).toEqual(
        await handWritten(
          `SELECT o.status, count(*) FROM ${t('line_items')} li JOIN ${t('orders')} o ON li.order_id = o.id WHERE o.status = 'returned' GROUP BY 1`,
        ),
      );
    });

    it('policies of several cubes on the path are all applied (ANDed)', async () => {
      expect(
        await engine(
          { measures: ['line_items.revenue'], dimensions: ['line_items.order_status', 'customers.segment'] },
          caller([], { status: 'completed', country: 'France' }),
        ),
      ).toEqual(
        await handWritten(
          `SELECT o.status, c.segment, sum(li.quantity * li.price) FROM ${t('line_items')} li JOIN ${t('orders')} o ON li.order_id = o.id
           JOIN ${t('customers')} c ON o.customer_id = c.id WHERE o.status = 'completed' AND c.country = 'France' GROUP BY 1, 2`,
        ),
      );
      // customers is not read by this query, so its policy has no say (as in Cube).
      expect(
        await engine(
          { measures: ['line_items.count'], dimensions: ['line_items.order_status'] },
          caller([], { status: 'completed', country: 'France' }),
        ),
      ).toEqual(
        await handWritten(
          `SELECT o.status, count(*) FROM ${t('line_items')} li JOIN ${t('orders')} o ON li.order_id = o.id WHERE o.status = 'completed' GROUP BY 1`,
        ),
      );
    });

    it('a fan-out query (a multiplied cube aggregated per primary key): every part is filtered', async () => {
      const who = caller([], { status: 'shipped', country: 'UK' });
      expect(await engine({ measures: ['customers.count', 'orders.count'], dimensions: ['customers.segment'] }, who)).toEqual(
        await handWritten(
          `SELECT c.segment, count(DISTINCT c.id) AS customers, count(DISTINCT o.id) AS orders FROM ${t('orders')} o JOIN ${t('customers')} c ON o.customer_id = c.id
           WHERE o.status = 'shipped' AND c.country = 'UK' GROUP BY 1`,
        ),
      );
    });

    it('a view: the view’s policy and the policies of the cubes behind it', async () => {
      const who = caller([], { status: 'completed', view_countries: ['UK', 'France'] });
      expect(await engine({ measures: ['sales.count'], dimensions: ['sales.customers_country'] }, who)).toEqual(
        await handWritten(
          `SELECT c.country, count(*) FROM ${t('line_items')} li JOIN ${t('orders')} o ON li.order_id = o.id
           JOIN ${t('customers')} c ON o.customer_id = c.id WHERE o.status = 'completed' AND c.country IN ('UK', 'France') GROUP BY 1`,
        ),
      );
      // Only a line_items member is named: the view's filter on customers still joins and filters customers.
      expect(await engine({ measures: ['sales.revenue'] }, who)).toEqual(
        await handWritten(
          `SELECT sum(li.quantity * li.price) FROM ${t('line_items')} li JOIN ${t('orders')} o ON li.order_id = o.id
           JOIN ${t('customers')} c ON o.customer_id = c.id WHERE o.status = 'completed' AND c.country IN ('UK', 'France')`,
        ),
      );
      expect(await engine({ measures: ['sales.count'] }, caller([], { status: 'completed' }))).toEqual(await handWritten(`SELECT 0`));
    });
  });

  describe('groups, conditions, member_level and row_level with several callers (item 2)', () => {
    const byCategory = { measures: ['products.count'], dimensions: ['products.category'] };
    const allCategories = async (): Promise<string[]> => handWritten(`SELECT category, count(*) FROM ${t('products')} GROUP BY 1`);
    const managerRows = (category: string): string =>
      `SELECT category, count(*) FROM ${t('products')} WHERE category = '${category}' OR (price >= 100 AND lower(name) LIKE 'product 1%') GROUP BY 1`;
    const productMembers = (who: Caller): string[] | undefined => {
      const cube = meta(model, who).cubes.find((c) => c.name === 'products');
      return cube && [...cube.dimensions, ...cube.measures].map((m) => m.name).sort();
    };

    it('an analyst sees the included members only, on every row', async () => {
      const analyst = caller(['analyst']);
      expect(productMembers(analyst)).toEqual(['products.category', 'products.count']);
      expect(await engine(byCategory, analyst)).toEqual(await allCategories());
      for (const member of ['products.price', 'products.name']) {
        await expect(load(model, { dimensions: [member] }, { warehouse: db.warehouse, caller: analyst })).rejects.toThrow(HIDDEN);
      }
    });

    it('a manager sees every member but the excluded one, on the rows of nested and/or filters', async () => {
      const manager = caller(['manager'], {}, { category: 'Books' });
      expect(productMembers(manager)).toEqual(['products.category', 'products.count', 'products.id', 'products.name']);
      expect(await engine(byCategory, manager)).toEqual(await handWritten(managerRows('Books')));
      await expect(load(model, { dimensions: ['products.price'] }, { warehouse: db.warehouse, caller: manager })).rejects.toThrow(
        "You requested hidden member: 'products__price'",
      );
      // No category attribute: that branch closes, the other branch of the `or` still decides.
      expect(await engine(byCategory, caller(['manager']))).toEqual(
        await handWritten(
          `SELECT category, count(*) FROM ${t('products')} WHERE price >= 100 AND lower(name) LIKE 'product 1%' GROUP BY 1`,
        ),
      );
    });

    it('a caller in two groups gets the union of members, and rows by the policies that grant what is asked', async () => {
      const both = caller(['analyst', 'manager'], {}, { category: 'Garden' });
      expect(productMembers(both)).toEqual(['products.category', 'products.count', 'products.id', 'products.name']);
      expect(await engine(byCategory, both)).toEqual(await allCategories());
      // Only the manager policy grants `name`, so its row filter decides.
      const names = await engine({ measures: ['products.count'], dimensions: ['products.category', 'products.name'] }, both);
      expect(names).toEqual(
        await handWritten(
          `SELECT category, name, count(*) FROM ${t('products')} WHERE category = 'Garden' OR (price >= 100 AND lower(name) LIKE 'product 1%') GROUP BY 1, 2`,
        ),
      );
    });

    it('conditions: every `if` must hold (ANDed), comparisons and `in` over the security context', async () => {
      const cleared = { clearance: 3, scopes: ['orders', 'products'] };
      for (const group of ['admin', 'auditor']) {
        const who = caller([group], cleared);
        expect(productMembers(who)).toEqual(['products.category', 'products.count', 'products.id', 'products.name', 'products.price']);
        expect(await engine(byCategory, who)).toEqual(await allCategories());
      }
      const refused: Array<Record<string, unknown>> = [
        { clearance: 2, scopes: ['products'] },
        { clearance: 5, scopes: ['orders'] },
        { ...cleared, suspended: true },
        {},
      ];
      for (const context of refused) {
        const who = caller(['admin'], context);
        expect(productMembers(who), JSON.stringify(context)).toBeUndefined();
        await expect(load(model, byCategory, { warehouse: db.warehouse, caller: who })).rejects.toThrow(HIDDEN);
      }
    });

    it('a caller no policy applies to cannot use the cube at all', async () => {
      await expect(load(model, { measures: ['products.count'] }, { warehouse: db.warehouse, caller: caller(['sales']) })).rejects.toThrow(
        "You requested hidden member: 'products__count'",
      );
      expect(productMembers(caller([]))).toBeUndefined();
    });

    it('a row_level value carrying SQL is a parameter, never SQL', async () => {
      const injection = "Books' OR '1'='1";
      expect(await engine(byCategory, caller(['manager'], {}, { category: injection }))).toEqual(
        await handWritten(
          `SELECT category, count(*) FROM ${t('products')} WHERE price >= 100 AND lower(name) LIKE 'product 1%' GROUP BY 1`,
        ),
      );
    });
  });
});

/** Every operator in a row_level filter, each against the WHERE clause a person would write. */
const POLICY_OPERATORS: Array<{ operator: string; member: string; values?: unknown[]; where: string }> = [
  { operator: 'equals', member: 'city', values: ['London'], where: "city = 'London'" },
  { operator: 'notEquals', member: 'city', values: ['London', 'Paris'], where: "city NOT IN ('London', 'Paris') OR city IS NULL" },
  { operator: 'contains', member: 'city', values: ['ON'], where: "lower(city) LIKE '%on%'" },
  { operator: 'notContains', member: 'city', values: ['on'], where: "lower(city) NOT LIKE '%on%' OR city IS NULL" },
  { operator: 'startsWith', member: 'city', values: ['l'], where: "lower(city) LIKE 'l%'" },
  { operator: 'notStartsWith', member: 'city', values: ['l'], where: "lower(city) NOT LIKE 'l%' OR city IS NULL" },
  { operator: 'endsWith', member: 'city', values: ['n'], where: "lower(city) LIKE '%n'" },
  { operator: 'notEndsWith', member: 'city', values: ['n'], where: "lower(city) NOT LIKE '%n' OR city IS NULL" },
  { operator: 'gt', member: 'id', values: ['{ securityContext.bound }'], where: 'id > 100' },
  { operator: 'gte', member: 'id', values: ['{ securityContext.bound }'], where: 'id >= 100' },
  { operator: 'lt', member: 'id', values: [100], where: 'id < 100' },
  { operator: 'lte', member: 'id', values: [100], where: 'id <= 100' },
  { operator: 'set', member: 'city', where: 'city IS NOT NULL' },
  { operator: 'notSet', member: 'city', where: 'city IS NULL' },
  {
    operator: 'inDateRange',
    member: 'created_at',
    values: ['2022-03-01', '2022-06-30'],
    where: "created_at >= TIMESTAMP '2022-03-01 00:00:00' AND created_at < TIMESTAMP '2022-07-01 00:00:00'",
  },
  {
    operator: 'notInDateRange',
    member: 'created_at',
    values: ['2022-03-01', '2022-06-30'],
    where: "created_at < TIMESTAMP '2022-03-01 00:00:00' OR created_at >= TIMESTAMP '2022-07-01 00:00:00'",
  },
  { operator: 'beforeDate', member: 'created_at', values: ['2022-06-01'], where: "created_at < TIMESTAMP '2022-06-01 00:00:00'" },
  { operator: 'beforeOrOnDate', member: 'created_at', values: ['2022-06-01'], where: "created_at <= TIMESTAMP '2022-06-01 00:00:00'" },
  { operator: 'afterDate', member: 'created_at', values: ['2022-06-01'], where: "created_at > TIMESTAMP '2022-06-01 00:00:00'" },
  { operator: 'afterOrOnDate', member: 'created_at', values: ['2022-06-01'], where: "created_at >= TIMESTAMP '2022-06-01 00:00:00'" },
];

describe.each(sampleTargets())('every operator in a row_level filter on $name', (target) => {
  let db: SampleDb;
  let model: DataModel;
  beforeAll(async () => {
    db = await target.open();
    const cubes = POLICY_OPERATORS.map(
      ({ operator, member, values }) => `
  - name: by_${operator}
    sql_table: '${db.table('customers')}'
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true }
      - { name: city, sql: city, type: string }
      - { name: created_at, sql: created_at, type: time }
    measures:
      - { name: count, type: count }
    access_policy:
      - group: "*"
        row_level:
          filters:
            - { member: ${member}, operator: ${operator}${values ? `, values: ${JSON.stringify(values)}` : ''} }`,
    );
    model = compileAccessModel(db, `cubes:${cubes.join('')}\n`);
  });
  afterAll(async () => {
    await db?.close();
  });

  it.each(POLICY_OPERATORS)('$operator', async ({ operator, where }) => {
    const response = await load(
      model,
      { measures: [`by_${operator}.count`] },
      { warehouse: db.warehouse, caller: caller([], { bound: 100 }) },
    );
    const expected = (await db.warehouse.query(`SELECT count(*) AS n FROM ${db.table('customers')} WHERE ${where}`, [])).rows[0]?.['n'];
    expect(Number(response.data[0]?.[`by_${operator}.count`])).toBe(Number(expected));
  });
});
