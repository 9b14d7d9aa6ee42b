import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QueryError } from './errors.js';
import { load, loadRequest, type DataRows, type LoadResponse, type MultiLoadResponse } from './load.js';
import type { Caller } from './model.js';
import type { Query } from './planner/query.js';
import { sampleTargets, type SampleDb } from './test-support/sample-warehouses.js';

const ADMIN: Caller = { groups: ['admin'], userAttributes: {}, securityContext: {} };
const NOW = new Date('2023-07-15T12:00:00Z');

const rowsOf = (response: LoadResponse): DataRows => response.data as DataRows;
const without = (rows: DataRows, key: string): DataRows => rows.map(({ [key]: _dropped, ...rest }) => rest);

describe.each(sampleTargets())('multi-query load on $name', (target) => {
  let db: SampleDb;
  beforeAll(async () => {
    db = await target.open();
  });
  afterAll(async () => {
    await db?.close();
  });
  const options = (multi = true) => ({
    warehouse: db.warehouse,
    caller: ADMIN,
    now: NOW,
    ...(multi ? { queryType: 'multi' as const } : {}),
  });

  describe('compareDateRange', () => {
    const query: Query = {
      measures: ['orders.count'],
      dimensions: ['orders.status'],
      timeDimensions: [
        { dimension: 'orders.created_at', granularity: 'month', compareDateRange: [['2023-01-01', '2023-03-31'], 'last quarter'] },
      ],
      order: { 'orders.created_at': 'asc', 'orders.status': 'asc' },
    };
    const resolved: Array<[string, string]> = [
      ['2023-01-01T00:00:00.000', '2023-03-31T23:59:59.999'],
      ['2023-04-01T00:00:00.000', '2023-06-30T23:59:59.999'],
    ];

    it('answers one result per range, each with the rows of the single-range query', async () => {
      const response = (await loadRequest(db.model, query, options())) as MultiLoadResponse;
      expect(response.queryType).toBe('compareDateRangeQuery');
      expect(response.slowQuery).toBe(false);
      expect(response.results).toHaveLength(2);
      for (const [index, range] of resolved.entries()) {
        const result = response.results[index] as LoadResponse;
        const single = await load(
          db.model,
          { ...query, timeDimensions: [{ dimension: 'orders.created_at', granularity: 'month', dateRange: range }] },
          options(false),
        );
        expect(rowsOf(single).length).toBeGreaterThan(0);
        expect(without(rowsOf(result), 'compareDateRange')).toEqual(rowsOf(single));
        expect(new Set(rowsOf(result).map((row) => row['compareDateRange']))).toEqual(new Set([range.join(' - ')]));
        expect(result.query.timeDimensions).toEqual([{ dimension: 'orders.created_at', granularity: 'month', dateRange: range }]);
        expect(result.annotation).toEqual(single.annotation);
      }
      expect(response.pivotQuery).toMatchObject({
        measures: ['orders.count'],
        dimensions: ['compareDateRange', 'orders.status'],
        timeDimensions: [{ dimension: 'orders.created_at', granularity: 'month', dateRange: resolved[0] }],
        queryType: 'compareDateRangeQuery',
      });
    });

    it('in the compact format, names the range as the last member', async () => {
      const response = (await loadRequest(db.model, { ...query, responseFormat: 'compact' }, options())) as MultiLoadResponse;
      const data = response.results[0]?.data as { members: string[]; dataset: unknown[][] };
      expect(data.members).toEqual(['orders.status', 'orders.created_at.month', 'orders.created_at', 'orders.count', 'compareDateRange']);
      expect(data.dataset[0]?.at(-1)).toBe(resolved[0]?.join(' - '));
    });

    it('is refused, as by Cube, when the client does not ask for the multi shape', async () => {
      await expect(loadRequest(db.model, query, options(false))).rejects.toThrow(
        new QueryError("'compareDateRangeQuery' query type is not supported by the client. Please update the client."),
      );
    });

    it('may be given for one time dimension only', async () => {
      const twice = {
        measures: ['orders.count'],
        timeDimensions: [
          { dimension: 'orders.created_at', compareDateRange: ['last month', 'this month'] },
          { dimension: 'customers.created_at', compareDateRange: ['last month', 'this month'] },
        ],
      };
      await expect(loadRequest(db.model, twice, options())).rejects.toThrow('compareDateRange can only exist for one timeDimension');
    });
  });

  describe('data blending', () => {
    const range: [string, string] = ['2023-01-01', '2023-06-30'];
    const queries: Query[] = [
      { measures: ['orders.count'], timeDimensions: [{ dimension: 'orders.created_at', granularity: 'month', dateRange: range }] },
      {
        measures: ['line_items.revenue'],
        dimensions: ['products.category'],
        timeDimensions: [{ dimension: 'orders.created_at', granularity: 'month', dateRange: range }],
      },
    ];

    it('answers each query with its own rows and a shared time axis', async () => {
      const response = (await loadRequest(db.model, queries, options())) as MultiLoadResponse;
      expect(response.queryType).toBe('blendingQuery');
      expect(response.results).toHaveLength(2);
      for (const [index, query] of queries.entries()) {
        const result = response.results[index] as LoadResponse;
        const single = await load(db.model, query, options(false));
        expect(rowsOf(single).length).toBeGreaterThan(0);
        // Rows of one month are in no particular order (the default order is by the time dimension only).
        expect(sortedRows(without(rowsOf(result), 'time.month'))).toEqual(sortedRows(rowsOf(single)));
        for (const row of rowsOf(result)) expect(row['time.month']).toBe(row['orders.created_at.month']);
      }
      expect(response.pivotQuery).toEqual({
        measures: ['orders.count', 'line_items.revenue'],
        dimensions: ['products.category'],
        timeDimensions: [{ dimension: 'time', granularity: 'month' }],
        queryType: 'blendingQuery',
      });
    });

    // Cube pivots on the granularity of the first query that has one; the engine took the first query's,
    // or 'day' when it had none, so the client looked for time.day in rows that carry time.month.
    it('pivots on the granularity of the first query that has one', async () => {
      const [withGranularity] = queries;
      const request = [{ measures: ['customers.count'] }, withGranularity];
      const response = (await loadRequest(db.model, request, options())) as MultiLoadResponse;
      expect(response.pivotQuery.timeDimensions).toEqual([{ dimension: 'time', granularity: 'month' }]);
      const customers = await db.warehouse.query(`SELECT count(*) AS n FROM ${db.table('customers')}`, []);
      expect(rowsOf(response.results[0] as LoadResponse)).toEqual([{ 'customers.count': String(customers.rows[0]?.['n']) }]);
      expect(rowsOf(response.results[1] as LoadResponse).every((row) => row['time.month'] === row['orders.created_at.month'])).toBe(true);
    });

    it.each([
      [
        'granularities differ',
        [queries[0], { ...queries[1], timeDimensions: [{ dimension: 'orders.created_at', granularity: 'week' }] }],
        'Data blending query granularities must match',
      ],
      ['no granularity', [{ measures: ['orders.count'] }], 'Data blending query without granularity is not supported'],
      [
        'a query compares date ranges',
        [
          queries[0],
          {
            ...queries[1],
            timeDimensions: [{ dimension: 'orders.created_at', granularity: 'month', compareDateRange: ['last month', 'this month'] }],
          },
        ],
        'compareDateRange is not supported in a data blending query (an array of queries): send it as a query of its own',
      ],
    ])('is refused when %s', async (_name, request, message) => {
      await expect(loadRequest(db.model, request, options())).rejects.toThrow(new QueryError(message));
    });

    it('is refused without the multi shape', async () => {
      await expect(loadRequest(db.model, queries, options(false))).rejects.toThrow(/'blendingQuery' query type is not supported/);
    });
  });

  describe('a regular query', () => {
    // Ordered in full: two statuses can have the same count.
    const query: Query = {
      measures: ['orders.count'],
      dimensions: ['orders.status'],
      order: [
        ['orders.count', 'desc'],
        ['orders.status', 'asc'],
      ],
    };

    it('answers the single shape unless the client asks for multi', async () => {
      const single = await loadRequest(db.model, query, options(false));
      expect(single).toEqual(await load(db.model, query, options(false)));
      const multi = (await loadRequest(db.model, query, options())) as MultiLoadResponse;
      expect(multi).toEqual({
        queryType: 'regularQuery',
        results: [single],
        pivotQuery: { ...(single as LoadResponse).query, queryType: 'regularQuery' },
        slowQuery: false,
      });
    });
  });
});

function sortedRows(rows: ReadonlyArray<Record<string, unknown>>): Array<Record<string, unknown>> {
  return [...rows].sort((left, right) => JSON.stringify(left).localeCompare(JSON.stringify(right)));
}
