import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile } from './compiler/compile.js';
import { load } from './load.js';
import type { Caller, DataModel } from './model.js';
import { sampleTargets, type SampleDb } from './test-support/sample-warehouses.js';

const ADMIN: Caller = { groups: ['admin'], userAttributes: {}, securityContext: {} };

/** A cube over the sample orders with measures of type time, as Cube models "latest order" figures. */
function timeMeasureModel(db: SampleDb): DataModel {
  const compiled = compile({
    'model/order_times.yml': `cubes:
  - name: order_times
    sql_table: '${db.table('orders')}'
    dimensions:
      - name: id
        sql: id
        type: number
        primary_key: true
      - name: status
        sql: status
        type: string
    measures:
      - name: last_created_at
        type: time
        sql: max(created_at)
      - name: first_created_at
        type: time
        sql: min(created_at)
      - name: latest
        type: max
        sql: created_at
      - name: count
        type: count
`,
  });
  if (!compiled.valid) throw new Error(JSON.stringify(compiled.errors));
  return compiled.model;
}

const ISO_LOCAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/;

describe.each(sampleTargets())('load on $name', (target) => {
  let db: SampleDb;
  beforeAll(async () => {
    db = await target.open();
  });
  afterAll(async () => {
    await db?.close();
  });

  describe('responseFormat compact', () => {
    it('answers {members, dataset} with the rows of the default format, in member order', async () => {
      const query = {
        measures: ['orders.count'],
        dimensions: ['orders.status'],
        timeDimensions: [{ dimension: 'orders.created_at', granularity: 'year' as const }],
        order: { 'orders.status': 'asc' as const, 'orders.created_at': 'asc' as const },
      };
      const options = { warehouse: db.warehouse, caller: ADMIN };
      const plain = await load(db.model, query, options);
      const compact = await load(db.model, { ...query, responseFormat: 'compact' }, options);
      const members = ['orders.status', 'orders.created_at.year', 'orders.created_at', 'orders.count'];
      expect(compact.data).toEqual({
        members,
        dataset: (plain.data as Array<Record<string, unknown>>).map((row) => members.map((member) => row[member])),
      });
      expect(compact.annotation).toEqual(plain.annotation);
      expect(compact.query).toEqual({ ...plain.query, responseFormat: 'compact' });
    });

    it('has no members when there are no rows, as Cube', async () => {
      const response = await load(
        db.model,
        {
          measures: ['orders.count'],
          dimensions: ['orders.status'],
          filters: [{ member: 'orders.status', operator: 'equals', values: ['no such status'] }],
          responseFormat: 'compact',
        },
        { warehouse: db.warehouse, caller: ADMIN },
      );
      expect(response.data).toEqual({ members: [], dataset: [] });
    });

    it.each([['columnar'], ['wide'], [3]])('refuses responseFormat %j by name', async (format) => {
      await expect(
        load(db.model, { measures: ['orders.count'], responseFormat: format }, { warehouse: db.warehouse, caller: ADMIN }),
      ).rejects.toThrow(/responseFormat/);
    });
  });

  describe('measures of type time', () => {
    it('are formatted like time dimensions', async () => {
      const model = timeMeasureModel(db);
      const response = await load(
        model,
        { measures: ['order_times.last_created_at', 'order_times.first_created_at'], dimensions: ['order_times.status'] },
        { warehouse: db.warehouse, caller: ADMIN },
      );
      const expected = await db.warehouse.query(
        `SELECT status, max(created_at) AS last, min(created_at) AS first FROM ${db.table('orders')} GROUP BY 1`,
        [],
      );
      expect(response.data.length).toBe(expected.rows.length);
      for (const row of response.data as Array<Record<string, unknown>>) {
        expect(row['order_times.last_created_at']).toMatch(ISO_LOCAL);
        expect(row['order_times.first_created_at']).toMatch(ISO_LOCAL);
        const direct = expected.rows.find((candidate) => candidate['status'] === row['order_times.status']);
        const last = direct?.['last'];
        const lastIso = last instanceof Date ? last.toISOString().slice(0, 23) : String(last).replace(' ', 'T').slice(0, 19);
        expect(String(row['order_times.last_created_at']).startsWith(lastIso)).toBe(true);
      }
      expect(response.annotation.measures['order_times.last_created_at']).toMatchObject({ type: 'time' });
    });

    it('min and max over a time column come back as times too, annotated as numbers as in Cube', async () => {
      const model = timeMeasureModel(db);
      const response = await load(
        model,
        { measures: ['order_times.latest', 'order_times.count'] },
        { warehouse: db.warehouse, caller: ADMIN },
      );
      const row = (response.data as Array<Record<string, unknown>>)[0] ?? {};
      expect(row['order_times.latest']).toMatch(ISO_LOCAL);
      expect(row['order_times.count']).toBe('5000');
      expect(response.annotation.measures['order_times.latest']).toMatchObject({ type: 'number' });
    });
  });
});
