import cube, { type CubeApi, type Query, type SqlQuery } from '@cubejs-client/core';
import { describe, expect, it } from 'vitest';
import { describeOnStores } from '../../test-support/server.js';
import { deploymentsPerWarehouse, explorerModelFiles } from './client-fixtures.js';
import { warehouseKinds } from './policies-fixtures.js';
import { dataDirOverride } from './test-fixtures.js';

/**
 * What @cubejs-client/core, unchanged, reads besides rows, on each warehouse: /meta's hierarchies,
 * folders and drill members as its Meta class and a ResultSet's drillDown read them, and /sql and
 * /dry-run for every query shape /load takes.
 */
const COMPARED: Query = {
  measures: ['orders.count'],
  timeDimensions: [
    {
      dimension: 'orders.created_at',
      granularity: 'month',
      compareDateRange: [
        ['2023-01-01', '2023-03-31'],
        ['2024-01-01', '2024-03-31'],
      ],
    },
  ],
};
const monthlyOf = (cubeName: string): Query => ({
  measures: [`${cubeName}.count`],
  timeDimensions: [{ dimension: `${cubeName}.created_at`, granularity: 'month', dateRange: ['2023-01-01', '2023-03-31'] }],
});
const BLENDED: Query[] = [monthlyOf('orders'), monthlyOf('customers')];

describeOnStores(
  '@cubejs-client/core reads meta, sql and dry-run',
  (server) => {
    const deploymentOn = deploymentsPerWarehouse(server, explorerModelFiles);

    describe.each(warehouseKinds)('on %s', (kind) => {
      const client = (): CubeApi => cube(deploymentOn(kind).token, { apiUrl: deploymentOn(kind).apiUrl });

      it('meta: hierarchies, flat and nested folders, drill members grouped by kind, and a time measure typed as time', async () => {
        const meta = await client().meta();
        const explorer = meta.cubes.find((c) => c.name === 'order_explorer')!;
        expect(explorer.folders).toEqual([
          { name: 'Figures', members: ['order_explorer.count', 'order_explorer.last_order_at'] },
          { name: 'Where', members: ['order_explorer.customers_country', 'order_explorer.customers_city'] },
        ]);
        expect(explorer.nestedFolders).toEqual([
          { name: 'Figures', members: ['order_explorer.count', 'order_explorer.last_order_at'] },
          { name: 'Where', members: ['order_explorer.customers_country', { name: 'City', members: ['order_explorer.customers_city'] }] },
        ]);
        expect(meta.cubes.find((c) => c.name === 'order_facts')!.hierarchies).toEqual([
          { name: 'order_facts.by_status', title: 'Status, then order', levels: ['order_facts.status', 'order_facts.id'], public: true },
        ]);
        expect(explorer.hierarchies).toEqual([
          expect.objectContaining({ name: 'order_explorer.by_status', levels: ['order_explorer.status', 'order_explorer.id'] }),
        ]);
        expect(meta.resolveMember('order_facts.count', 'measures')).toMatchObject({
          drillMembers: ['order_facts.id', 'order_facts.status', 'customers.country'],
          drillMembersGrouped: { measures: [], dimensions: ['order_facts.id', 'order_facts.status', 'customers.country'] },
        });
        expect(meta.resolveMember('order_explorer.count', 'measures')).toMatchObject({
          drillMembers: ['order_explorer.id', 'order_explorer.status', 'order_explorer.customers_country'],
        });
        expect(meta.resolveMember('order_facts.last_order_at', 'measures')).toMatchObject({ type: 'time' });
        expect(meta.filterOperatorsForMember('order_facts.status', 'dimensions').map((o) => o.name)).toContain('contains');
      });

      it('meta with onlyViews: the views alone', async () => {
        const views = await client().meta({ onlyViews: true });
        expect(views.cubes.map((c) => c.name).sort()).toEqual(['order_explorer', 'sales']);
        expect(views.cubes.every((c) => c.type === 'view')).toBe(true);
      });

      it("drillDown: the client builds the drill query from the answer's annotation, and the server answers it", async () => {
        const byStatus = await client().load({ measures: ['order_facts.count'], dimensions: ['order_facts.status'] });
        const completed = byStatus.tablePivot().find((row) => row['order_facts.status'] === 'completed')!;
        const drill = byStatus.drillDown({ xValues: ['completed'] })!;
        expect(drill).toMatchObject({
          measures: [],
          dimensions: ['order_facts.id', 'order_facts.status', 'customers.country'],
          filters: [
            { member: 'order_facts.count', operator: 'measureFilter' },
            { member: 'order_facts.status', operator: 'equals', values: ['completed'] },
          ],
        });
        const rows = await client().load({ ...drill, limit: 10_000 });
        expect(rows.tablePivot()).toHaveLength(Number(completed['order_facts.count']));
      });

      it('sql: one SqlQuery for a query, one per query for blending and compareDateRange, with the order as Cube names it', async () => {
        // The client's types say one SqlQuery; it makes an array of them when the answer is one, as for several queries.
        const single = (await client().sql({ ...monthlyOf('orders'), order: { 'orders.count': 'desc' } })) as SqlQuery | SqlQuery[];
        expect(Array.isArray(single)).toBe(false);
        const one = single as SqlQuery;
        expect(one.sql()).toMatch(/^SELECT/);
        expect((one.rawQuery() as { order?: unknown }).order).toEqual({ 'orders.count': 'desc' });
        for (const [shape, query, parts] of [
          ['blending', BLENDED, ['orders', 'customers']],
          ['compareDateRange', COMPARED, ['orders', 'orders']],
        ] as const) {
          const several = (await client().sql(query as Query)) as SqlQuery | SqlQuery[];
          expect(Array.isArray(several), shape).toBe(true);
          const texts = (several as SqlQuery[]).map((entry) => entry.sql());
          expect(texts.map((text) => parts.find((part) => text.includes(`${part}__count`)))).toEqual(parts);
        }
      });

      it('dry-run: the normalized queries and the pivot query load answers with, for every shape', async () => {
        for (const [queryType, query, count] of [
          ['regularQuery', monthlyOf('orders'), 1],
          ['blendingQuery', BLENDED, 2],
          ['compareDateRangeQuery', COMPARED, 2],
        ] as const) {
          const dry = await client().dryRun(query as Query);
          expect(dry.queryType).toBe(queryType);
          expect(dry.normalizedQueries).toHaveLength(count);
          const loaded = await client().load(query as Query);
          const { loadResponse } = loaded.serialize();
          expect(dry.pivotQuery, queryType).toEqual(loadResponse.pivotQuery);
          expect(dry.normalizedQueries).toEqual(loadResponse.results.map((result) => result.query));
        }
      });
    });
  },
  dataDirOverride(),
);
