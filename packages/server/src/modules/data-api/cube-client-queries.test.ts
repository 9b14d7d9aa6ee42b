import cube, { type CubeApi, type Query } from '@cubejs-client/core';
import { describe, expect, it, vi } from 'vitest';
import { describeOnStores } from '../../test-support/server.js';
import { deploymentsPerWarehouse, explorerModelFiles } from './client-fixtures.js';
import { warehouseKinds } from './policies-fixtures.js';
import { dataDirOverride } from './test-fixtures.js';

/**
 * Issue 12's query format as @cubejs-client/core, unchanged, sends it over real HTTP, on each
 * warehouse: compareDateRange, blending, compact rows, total, ungrouped, timezone, both forms of
 * order, time measures, GET and POST. Each answer is compared with the warehouse's own SQL or with
 * the plain query it must agree with.
 */
const MONTHS_2023_Q1 = ['2023-01-01T00:00:00.000', '2023-02-01T00:00:00.000', '2023-03-01T00:00:00.000'];
const monthly = (dateRange: [string, string]): Query => ({
  measures: ['orders.count'],
  timeDimensions: [{ dimension: 'orders.created_at', granularity: 'month', dateRange }],
});
const BY_STATUS: Query = { measures: ['orders.count'], dimensions: ['orders.status'], order: { 'orders.status': 'asc' } };
const counts = (rows: Array<Record<string, unknown>>) => rows.map((row) => row['orders.count']);
const sumOf = (values: unknown[]) => values.reduce<number>((sum, value) => sum + Number(value), 0);

describeOnStores(
  '@cubejs-client/core reads the query format of issue 12',
  (server) => {
    const deploymentOn = deploymentsPerWarehouse(server, explorerModelFiles);

    describe.each(warehouseKinds)('on %s', (kind) => {
      const deployment = () => deploymentOn(kind);
      const client = (options: { method?: 'GET' | 'POST'; parseDateMeasures?: boolean } = {}): CubeApi =>
        cube(deployment().token, { apiUrl: deployment().apiUrl, ...options });
      const truth = (sql: (table: (name: string) => string) => string) => deployment().warehouse.truth(sql);

      it('compareDateRange: one result per range, pivoted by range, each equal to the range queried alone', async () => {
        const ranges: Array<[string, string]> = [
          ['2023-01-01', '2023-03-31'],
          ['2024-01-01', '2024-03-31'],
        ];
        const compared = await client().load({
          measures: ['orders.count'],
          timeDimensions: [{ dimension: 'orders.created_at', granularity: 'month', compareDateRange: ranges }],
        });
        expect(compared.serialize().loadResponse.queryType).toBe('compareDateRangeQuery');
        const alone = await Promise.all(ranges.map((range) => client().load(monthly(range))));
        expect(compared.decompose().map((one) => counts(one.rawData()))).toEqual(alone.map((one) => counts(one.rawData())));
        const labels = ['2023-01-01T00:00:00.000 - 2023-03-31T23:59:59.999', '2024-01-01T00:00:00.000 - 2024-03-31T23:59:59.999'];
        // Each row names its range, as Cube's rows do.
        expect(compared.decompose().map((one) => [...new Set(one.rawData().map((row) => row['compareDateRange']))])).toEqual(
          labels.map((label) => [label]),
        );
        // By default the ranges are lined up month by month: one column, and one chart series, per range.
        const series = labels.map((label) => `${label},orders.count`);
        expect(Object.keys(compared.tablePivot()[0]!)).toEqual(['orders.created_at.month', ...series]);
        expect(compared.seriesNames().map((name) => name.key)).toEqual(series);
        const chart = compared.chartPivot();
        expect(chart).toHaveLength(3);
        expect(chart.map((point) => point[series[1]!])).toEqual(counts(alone[1]!.rawData()).map(Number));
        const [first] = await truth(
          (t) => `SELECT count(*) AS n FROM ${t('orders')} WHERE created_at >= '2023-01-01' AND created_at < '2023-04-01'`,
        );
        expect(sumOf(counts(alone[0]!.rawData()))).toBe(Number(first!['n']));
      });

      it('data blending: an array of queries on one time axis, each measure as its own query answers it', async () => {
        const range: [string, string] = ['2023-01-01', '2023-03-31'];
        const customers: Query = {
          measures: ['customers.count'],
          timeDimensions: [{ dimension: 'customers.created_at', granularity: 'month', dateRange: range }],
        };
        const blended = await client().load([monthly(range), customers]);
        expect(blended.serialize().loadResponse.queryType).toBe('blendingQuery');
        const chart = blended.chartPivot();
        expect(chart.map((point) => point.x)).toEqual(MONTHS_2023_Q1);
        const orders = await client().load(monthly(range));
        expect(chart.map((point) => point['orders.count'])).toEqual(counts(orders.rawData()).map(Number));
        expect(blended.decompose()[1]!.rawData()).toEqual((await client().load(customers)).rawData());
      });

      it('responseFormat compact: the server answers members and dataset, the client turns them back into the same rows', async () => {
        const rows = (await client().load(BY_STATUS)).tablePivot();
        const compact = await client().load(BY_STATUS, undefined, undefined, 'compact');
        expect(compact.tablePivot()).toEqual(rows);
        const response = await fetch(
          `${deployment().apiUrl}/load?query=${encodeURIComponent(JSON.stringify({ ...BY_STATUS, responseFormat: 'compact' }))}`,
          {
            headers: { authorization: deployment().token },
          },
        );
        const body = (await response.json()) as { data: { members: string[]; dataset: unknown[][] } };
        expect(body.data.members).toEqual(['orders.status', 'orders.count']);
        expect(body.data.dataset).toEqual(rows.map((row) => [row['orders.status'], row['orders.count']]));
        // Blended queries in the compact form too: the client reads each result's members and dataset.
        const blended = await client().load([monthly(['2023-01-01', '2023-03-31'])], undefined, undefined, 'compact');
        expect(blended.chartPivot().map((point) => point.x)).toEqual(MONTHS_2023_Q1);
      });

      it('total: the row count without limit and offset, as totalRows()', async () => {
        const page = await client().load({ ...BY_STATUS, total: true, limit: 2, offset: 1 });
        const [statuses] = await truth((t) => `SELECT count(DISTINCT status) AS n FROM ${t('orders')}`);
        expect(page.totalRows()).toBe(Number(statuses!['n']));
        expect(page.tablePivot()).toEqual((await client().load(BY_STATUS)).tablePivot().slice(1, 3));
      });

      it('ungrouped: one row per table row, as the warehouse holds them', async () => {
        const rows = await client().load({
          dimensions: ['orders.id', 'orders.status'],
          ungrouped: true,
          order: { 'orders.id': 'asc' },
          limit: 5,
        });
        const expected = await truth((t) => `SELECT id, status FROM ${t('orders')} ORDER BY id LIMIT 5`);
        expect(rows.tablePivot()).toEqual(expected.map((row) => ({ 'orders.id': row['id'], 'orders.status': row['status'] })));
      });

      it('timezone: days are local days, their counts those of the UTC instants they span', async () => {
        const local = await client().load({
          measures: ['orders.count'],
          timeDimensions: [{ dimension: 'orders.created_at', granularity: 'day', dateRange: ['2023-03-01', '2023-03-03'] }],
          timezone: 'America/New_York',
        });
        expect(local.query().timezone).toBe('America/New_York');
        expect(local.chartPivot().map((point) => point.x)).toEqual([
          '2023-03-01T00:00:00.000',
          '2023-03-02T00:00:00.000',
          '2023-03-03T00:00:00.000',
        ]);
        // New York is UTC-5 before its change to summer time on 12 March.
        const [spanned] = await truth(
          (t) =>
            `SELECT count(*) AS n FROM ${t('orders')} WHERE created_at >= '2023-03-01 05:00:00' AND created_at < '2023-03-04 05:00:00'`,
        );
        expect(sumOf(counts(local.rawData()))).toBe(Number(spanned!['n']));
      });

      it('order as an object and as an array of pairs: the same rows, in that order', async () => {
        const query = { measures: ['orders.count'], dimensions: ['orders.status'] };
        const asObject = await client().load({ ...query, order: { 'orders.count': 'desc', 'orders.status': 'asc' } });
        const asArray = await client().load({
          ...query,
          order: [
            ['orders.count', 'desc'],
            ['orders.status', 'asc'],
          ],
        });
        expect(asArray.tablePivot()).toEqual(asObject.tablePivot());
        const expected = await truth((t) => `SELECT status, count(*) AS n FROM ${t('orders')} GROUP BY status ORDER BY n DESC, status`);
        expect(asObject.tablePivot().map((row) => row['orders.status'])).toEqual(expected.map((row) => row['status']));
      });

      it('a time measure is formatted as a time dimension is, and the client parses it as a date when asked', async () => {
        const query: Query = { measures: ['order_facts.last_order_at', 'order_facts.first_order_at'] };
        const [row] = (await client().load(query)).tablePivot();
        const latest = await client().load({
          dimensions: ['order_facts.created_at'],
          order: { 'order_facts.created_at': 'desc' },
          limit: 1,
        });
        const earliest = await client().load({
          dimensions: ['order_facts.created_at'],
          order: { 'order_facts.created_at': 'asc' },
          limit: 1,
        });
        expect(row).toEqual({
          'order_facts.last_order_at': latest.tablePivot()[0]!['order_facts.created_at'],
          'order_facts.first_order_at': earliest.tablePivot()[0]!['order_facts.created_at'],
        });
        expect(row!['order_facts.last_order_at']).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/);
        const parsed = await client({ parseDateMeasures: true }).load(query);
        expect(parsed.chartPivot()[0]!['order_facts.last_order_at']).toBeInstanceOf(Date);
      });

      it.each(['GET', 'POST'] as const)('load by %s: the same answer, sent as asked', async (method) => {
        const fetchSpy = vi.spyOn(globalThis, 'fetch');
        try {
          const rows = (await client({ method }).load(BY_STATUS)).tablePivot();
          expect(fetchSpy.mock.calls.map(([, init]) => init?.method)).toEqual([method]);
          expect(rows).toEqual((await client().load(BY_STATUS)).tablePivot());
        } finally {
          fetchSpy.mockRestore();
        }
      });

      it("the client's cache option goes with the request and the query is answered", async () => {
        for (const cacheMode of ['stale-if-slow', 'stale-while-revalidate', 'must-revalidate', 'no-cache'] as const) {
          for (const method of ['GET', 'POST'] as const) {
            const rows = (await client({ method }).load(BY_STATUS, { cache: cacheMode })).tablePivot();
            expect(rows, `${cacheMode} by ${method}`).toEqual((await client().load(BY_STATUS)).tablePivot());
          }
        }
      });
    });
  },
  dataDirOverride(),
);
