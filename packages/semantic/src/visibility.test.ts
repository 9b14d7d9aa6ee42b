import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile } from './compiler/compile.js';
import { QueryError } from './errors.js';
import { load } from './load.js';
import { meta } from './meta.js';
import type { DataModel } from './model.js';
import type { Query } from './planner/query.js';
import { sampleTargets, sortedValues, type SampleDb } from './test-support/sample-warehouses.js';

/**
 * Cube's `public` as its meta transformer and data API apply it: a primary key is hidden unless it
 * says `public: true`; `public` wins over the older `shown`; a hidden cube hides all its members; a
 * view member is visible whatever the cube member says (Cube copies neither `public` nor
 * `primary_key` into a view). A hidden member is left out of meta and refused when a query selects
 * it, and still works everywhere else: in the model's SQL, joins, filters, segments and order.
 */
const visibilityModel = (table: (name: string) => string): string => `cubes:
  - name: buyers
    sql_table: '${table('customers')}'
    joins:
      - name: purchases
        relationship: one_to_many
        sql: "{CUBE}.id = {purchases.customer_id}"
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true }
      - { name: country, sql: country, type: string }
      - { name: email, sql: email, type: string, public: false }
      - { name: segment, sql: segment, type: string, shown: false, public: true }
    measures:
      - { name: count, type: count }
      - { name: distinct_ids, type: count_distinct, sql: id }
    segments:
      - { name: odd, sql: "{CUBE}.id % 2 = 1", public: false }
  - name: purchases
    sql_table: '${table('orders')}'
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true, shown: true }
      - { name: customer_id, sql: customer_id, type: number, public: false }
      - { name: status, sql: status, type: string }
      - { name: created_at, sql: created_at, type: time, public: false }
    measures:
      - { name: count, type: count }
  - name: internal_products
    sql_table: '${table('products')}'
    public: false
    dimensions:
      - { name: id, sql: id, type: number, primary_key: true, public: true }
      - { name: category, sql: category, type: string }
    measures:
      - { name: count, type: count }
views:
  - name: catalog
    cubes:
      - join_path: internal_products
        includes: "*"
  - name: buyer_view
    cubes:
      - join_path: buyers
        includes: [id, email, count]
`;

const HIDDEN = (alias: string): RegExp =>
  new RegExp(`^You requested hidden member: '${alias}'\\. Please make it visible using \`shown: true\``);

describe('member visibility (`public`) in meta', () => {
  const compiled = compile({ 'model/m.yml': visibilityModel((name) => name) });
  const model = compiled.model;
  const names = (cube: string, kind: 'measures' | 'dimensions' | 'segments'): string[] | undefined =>
    meta(model)
      .cubes.find((entry) => entry.name === cube)
      ?.[kind].map((member) => member.name);

  it('compiles', () => {
    expect(compiled.errors).toEqual([]);
  });

  it('hides a primary key unless it is public, and `public` wins over `shown`', () => {
    expect(names('buyers', 'dimensions')).toEqual(['buyers.country', 'buyers.segment']);
    expect(names('purchases', 'dimensions')).toEqual(['purchases.id', 'purchases.status']);
    expect(names('buyers', 'segments')).toEqual([]);
  });

  it('leaves out a hidden cube, and shows its members through a view, primary key included', () => {
    expect(meta(model).cubes.map((entry) => entry.name)).not.toContain('internal_products');
    expect(names('catalog', 'dimensions')).toEqual(['catalog.id', 'catalog.category']);
    expect(names('buyer_view', 'dimensions')).toEqual(['buyer_view.id', 'buyer_view.email']);
  });
});

describe.each(sampleTargets())('hidden members in queries on $name', (target) => {
  let db: SampleDb;
  let model: DataModel;
  beforeAll(async () => {
    db = await target.open();
    const compiled = compile({ 'model/m.yml': visibilityModel(db.table) });
    expect(compiled.errors).toEqual([]);
    model = compiled.model;
  });
  afterAll(async () => {
    await db?.close();
  });

  const engine = async (query: Query): Promise<string[]> => sortedValues((await load(model, query, { warehouse: db.warehouse })).data);
  const handWritten = async (sql: string): Promise<string[]> => sortedValues((await db.warehouse.query(sql, [])).rows);
  const t = (name: string): string => db.table(name);

  it.each([
    { name: 'a primary key as a dimension', query: { dimensions: ['buyers.id'] }, alias: 'buyers__id' },
    { name: 'a public: false dimension', query: { measures: ['buyers.count'], dimensions: ['buyers.email'] }, alias: 'buyers__email' },
    { name: 'a member of a hidden cube', query: { measures: ['internal_products.count'] }, alias: 'internal_products__count' },
    {
      name: 'a hidden time dimension with a granularity',
      query: { measures: ['purchases.count'], timeDimensions: [{ dimension: 'purchases.created_at', granularity: 'year' }] },
      alias: 'purchases__created_at_year',
    },
    { name: 'a primary key in an ungrouped query', query: { dimensions: ['buyers.id'], ungrouped: true }, alias: 'buyers__id' },
  ])('refuses $name with Cube’s hidden-member error', async ({ query, alias }) => {
    const answer = load(model, query, { warehouse: db.warehouse });
    await expect(answer).rejects.toThrow(QueryError);
    await expect(answer).rejects.toThrow(HIDDEN(alias));
  });

  it('reads hidden members inside the model: joins on primary keys and a count_distinct over one', async () => {
    expect(await engine({ measures: ['buyers.distinct_ids', 'purchases.count'], dimensions: ['buyers.country'] })).toEqual(
      await handWritten(
        `SELECT c.country, count(DISTINCT c.id) AS buyers, count(o.id) AS purchases FROM ${t('customers')} c LEFT JOIN ${t('orders')} o ON c.id = o.customer_id GROUP BY 1`,
      ),
    );
  });

  it('filters, segments, orders and date ranges on hidden members, as Cube does', async () => {
    const query: Query = {
      measures: ['buyers.count'],
      dimensions: ['buyers.country'],
      segments: ['buyers.odd'],
      filters: [
        { member: 'buyers.id', operator: 'lt', values: ['300'] },
        { member: 'buyers.email', operator: 'contains', values: ['1'] },
      ],
      timeDimensions: [{ dimension: 'purchases.created_at', dateRange: ['2023-01-01', '2023-06-30'] }],
      order: [['buyers.id', 'asc']],
    };
    expect(await engine(query)).toEqual(
      await handWritten(
        `SELECT c.country, count(DISTINCT c.id) FROM ${t('customers')} c JOIN ${t('orders')} o ON c.id = o.customer_id
         WHERE c.id % 2 = 1 AND c.id < 300 AND c.email LIKE '%1%'
           AND o.created_at >= TIMESTAMP '2023-01-01' AND o.created_at < TIMESTAMP '2023-07-01' GROUP BY 1`,
      ),
    );
  });

  it('answers a hidden cube’s members and a hidden primary key through a view', async () => {
    expect(await engine({ measures: ['catalog.count'], dimensions: ['catalog.category'] })).toEqual(
      await handWritten(`SELECT category, count(*) FROM ${t('products')} GROUP BY 1`),
    );
    expect(
      await engine({
        dimensions: ['buyer_view.id', 'buyer_view.email'],
        filters: [{ member: 'buyer_view.id', operator: 'lte', values: ['3'] }],
      }),
    ).toEqual(await handWritten(`SELECT id, email FROM ${t('customers')} WHERE id <= 3`));
  });

  it('answers a primary key marked `shown: true`', async () => {
    expect(await engine({ dimensions: ['purchases.id'], filters: [{ member: 'purchases.id', operator: 'lte', values: ['3'] }] })).toEqual(
      await handWritten(`SELECT id FROM ${t('orders')} WHERE id <= 3`),
    );
  });
});
