import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile } from './compiler/compile.js';
import { load } from './load.js';
import { meta } from './meta.js';
import type { DataModel } from './model.js';
import { normalizeRows, sampleTargets, type SampleDb } from './test-support/sample-warehouses.js';

/** Geo dimensions and `extends` over the sample customers. */
const featuresModel = (customers: string): string => `cubes:
  - name: places
    sql_table: '${customers}'
    measures:
      - name: count
        type: count
    dimensions:
      - name: id
        sql: id
        type: number
        primary_key: true
      - name: city
        sql: city
        type: string
      - name: location
        type: geo
        latitude:
          sql: "{CUBE}.id * 0.5"
        longitude:
          sql: "-{CUBE}.id"
  - name: us_places
    extends: places
    sql: "SELECT * FROM ${customers.replace(/"/g, '\\"')} WHERE country = 'USA'"
    measures:
      - name: with_city
        type: count
        filters:
          - sql: "{CUBE}.city IS NOT NULL"
views:
  - name: atlas
    cubes:
      - join_path: us_places
        includes: [location, with_city]
`;

describe.each(sampleTargets())('model features on $name', (target) => {
  let db: SampleDb;
  let model: DataModel;
  beforeAll(async () => {
    db = await target.open();
    const compiled = compile({ 'model/features.yml': featuresModel(db.table('customers').replace(/'/g, "''")) });
    expect(compiled.errors).toEqual([]);
    model = compiled.model;
  });
  afterAll(async () => {
    await db?.close();
  });

  const direct = async (sql: string): Promise<Array<Record<string, unknown>>> => normalizeRows((await db.warehouse.query(sql, [])).rows);

  it('returns a geo dimension as `latitude,longitude` text, filterable as a string, with type geo', async () => {
    const response = await load(
      model,
      {
        dimensions: ['places.location'],
        filters: [{ member: 'places.location', operator: 'startsWith', values: ['1.5,'] }],
      },
      { warehouse: db.warehouse },
    );
    const expected = await direct(
      `SELECT CAST(id * 0.5 AS VARCHAR) || ',' || CAST(-id AS VARCHAR) AS v FROM ${db.table('customers')} WHERE id = 3`,
    );
    expect(response.data).toEqual([{ 'places.location': expected[0]?.['v'] }]);
    expect(response.data[0]?.['places.location']).toMatch(/^1\.5,-3$/);
    expect(response.annotation.dimensions['places.location']).toMatchObject({ type: 'geo' });
  });

  it('queries a cube that extends another: inherited members over its own sql, and its own members', async () => {
    const response = await load(
      model,
      { measures: ['us_places.count', 'us_places.with_city'], dimensions: ['us_places.city'] },
      { warehouse: db.warehouse },
    );
    const engine = normalizeRows(
      response.data.map((row) => ({ a: row['us_places.city'], b: row['us_places.count'], c: row['us_places.with_city'] })),
    );
    const expected = await direct(
      `SELECT city AS a, count(*) AS b, count(CASE WHEN city IS NOT NULL THEN 1 END) AS c FROM ${db.table('customers')} WHERE country = 'USA' GROUP BY 1`,
    );
    const sort = (rows: Array<Record<string, unknown>>): Array<Record<string, unknown>> =>
      [...rows].sort((x, y) => (JSON.stringify(x) < JSON.stringify(y) ? -1 : 1));
    expect(expected.length).toBeGreaterThan(0);
    expect(sort(engine)).toEqual(sort(expected));
  });

  it('reaches an inherited geo dimension through a view', async () => {
    const response = await load(
      model,
      { dimensions: ['atlas.location'], measures: ['atlas.with_city'], limit: 1000 },
      { warehouse: db.warehouse },
    );
    const expected = await direct(`SELECT count(*) AS n FROM ${db.table('customers')} WHERE country = 'USA' AND city IS NOT NULL`);
    const total = response.data.reduce((sum, row) => sum + Number(row['atlas.with_city']), 0);
    expect(total.toFixed(4)).toBe(expected[0]?.['n']);
    expect(meta(model).cubes.find((c) => c.name === 'atlas')?.dimensions[0]).toMatchObject({ name: 'atlas.location', type: 'geo' });
  });
});
