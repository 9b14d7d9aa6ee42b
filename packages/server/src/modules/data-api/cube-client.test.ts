import cube, { type CubeApi } from '@cubejs-client/core';
import { beforeAll, expect, it, vi } from 'vitest';
import { describeOnStores, type TestServer } from '../../test-support/server.js';
import { bootstrap } from '../accounts/bootstrap.js';
import { demoOnFirstStart } from '../demo/service.js';
import { dataDirOverride } from './test-fixtures.js';

/**
 * Cube's own client, `@cubejs-client/core` from the npm registry, unchanged, against the demo
 * deployment of a fresh server over real HTTP at its path-based URL (issue 14: "test with that
 * package as one of the clients"). The server answers Continue wait after 100 ms, so the slow
 * cube's query makes the client retry until its data is ready.
 */
const CONTINUE_WAIT_MS = 100;
/** A cube whose every query sleeps 1.5 s in DuckDB (in a filter, which the optimizer cannot drop): genuinely slower than continue-wait. */
const SLOW_CUBE = `cubes:
  - name: slow
    sql: SELECT 1 AS id WHERE sleep_ms(1500) IS NULL
    measures:
      - name: count
        type: count
    dimensions:
      - name: id
        sql: id
        type: number
        primary_key: true
`;

/** The first start on the test store: the default account, its key, and the demo deployment with a slow cube added. */
async function freshServerWithDemo(server: TestServer) {
  const boot = await bootstrap(server.store, server.services, server.config);
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const address = server.app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const failures: string[] = [];
  const log = {
    info: () => undefined,
    error: (details: object, message: string) => failures.push(`${message} ${JSON.stringify(details)}`),
  };
  await server.jobs.start();
  try {
    await demoOnFirstStart(server.services, { ...boot, baseUrl: base, enabled: true }, log, { lineItems: 4_000 });
  } finally {
    await server.jobs.stop();
  }
  expect(failures).toEqual([]);
  const account = (await server.services.accounts.findByName(boot.tenant))!;
  const branch = await server.services.dataModel.branch(account.id, 1, 'main');
  const tree = await server.services.dataModel.treeAt(account.id, Number(branch.head_commit_id));
  const [hash] = await server.services.dataModel.storeBlobs(account.id, [SLOW_CUBE]);
  await server.services.dataModel.commitTree(null, branch, {
    entries: { ...tree, 'model/cubes/slow.yml': hash! },
    baseCommitId: Number(branch.head_commit_id),
    message: 'A slow cube',
    build: 'deploy',
  });
  await server.jobs.runUntilIdle();

  const minted = await fetch(`${base}/api/v1/deployments/1/token`, {
    method: 'POST',
    headers: { authorization: `Api-Key ${boot.apiKey}`, 'content-type': 'application/json' },
    body: '{}',
  });
  const { cubeApiToken } = (await minted.json()) as { cubeApiToken: string };
  return { base, token: cubeApiToken };
}

const BY_STATUS = {
  measures: ['orders.count'],
  dimensions: ['orders.status'],
  order: { 'orders.status': 'asc' as const },
};

describeOnStores(
  '@cubejs-client/core, unchanged, reads the demo deployment (issue 14)',
  (server) => {
    let api: CubeApi;
    let direct: (query: unknown) => Promise<any>;

    beforeAll(async () => {
      const { base, token } = await freshServerWithDemo(server());
      const apiUrl = `${base}/d/1/cubejs-api/v1`;
      api = cube(token, { apiUrl });
      // The same query by hand, as curl sends it: what the client's answers are compared with.
      direct = async (query) => {
        const response = await fetch(`${apiUrl}/load?query=${encodeURIComponent(JSON.stringify(query))}`, {
          headers: { authorization: token },
        });
        return response.json();
      };
    }, 120_000);

    it('load: a ResultSet of the rows the data API answers', async () => {
      const resultSet = await api.load(BY_STATUS);
      const rows = resultSet.tablePivot();
      expect(rows.length).toBeGreaterThan(1);
      expect(rows).toEqual((await direct(BY_STATUS)).data);
      expect(resultSet.rawData()).toEqual(rows);
      expect(resultSet.annotation().measures['orders.count']).toMatchObject({ type: 'number' });
      // Time dimensions by granularity, as a chart asks for them.
      const monthly = await api.load({
        measures: ['line_items.revenue'],
        timeDimensions: [{ dimension: 'orders.created_at', granularity: 'month', dateRange: ['2023-01-01', '2023-03-31'] }],
      });
      expect(monthly.chartPivot().map((point) => point.x)).toEqual([
        '2023-01-01T00:00:00.000',
        '2023-02-01T00:00:00.000',
        '2023-03-01T00:00:00.000',
      ]);
    });

    it('meta: the cubes and views with their members', async () => {
      const meta = await api.meta();
      const names = meta.meta.cubes.map((c) => c.name);
      expect(names).toEqual(expect.arrayContaining(['orders', 'customers', 'line_items', 'slow']));
      expect(meta.resolveMember('orders.count', 'measures')).toMatchObject({ name: 'orders.count', type: 'number' });
    });

    it('sql and dryRun: the SQL a query runs and its normalized form', async () => {
      const sql = await api.sql(BY_STATUS);
      const one = Array.isArray(sql) ? sql[0]! : sql;
      expect(one.sql()).toMatch(/^SELECT/i);
      expect(one.sql()).toContain('orders');
      const dry = await api.dryRun(BY_STATUS);
      expect(dry).toMatchObject({
        queryType: 'regularQuery',
        normalizedQueries: [expect.objectContaining({ measures: ['orders.count'] })],
      });
    });

    it('a query whose URL would pass 2,000 characters goes as POST, with the same answer', async () => {
      const statuses = ['completed', 'shipped', 'processing', 'cancelled', 'returned'];
      // Values that match no row, enough of them to make the GET URL too long for the client.
      const padding = Array.from({ length: 120 }, (_, i) => `not-a-status-${i}`);
      const long = { ...BY_STATUS, filters: [{ member: 'orders.status', operator: 'equals' as const, values: [...statuses, ...padding] }] };
      const fetchSpy = vi.spyOn(globalThis, 'fetch');
      try {
        const resultSet = await api.load(long);
        const methods = fetchSpy.mock.calls.map(([, init]) => init?.method);
        expect(methods).toContain('POST');
        expect(methods).not.toContain('GET');
        expect(resultSet.tablePivot()).toEqual((await direct(BY_STATUS)).data);
      } finally {
        fetchSpy.mockRestore();
      }
    });

    it('a query slower than the continue-wait timeout: the client is told to continue waiting, retries, and gets the data', async () => {
      const progress: unknown[] = [];
      const resultSet = await api.load({ measures: ['slow.count'] }, { progressCallback: (p) => progress.push(p) });
      expect(progress.length).toBeGreaterThan(0);
      expect(resultSet.tablePivot()).toEqual([{ 'slow.count': '1' }]);
    });
  },
  { ...dataDirOverride(), PLINTH_CONTINUE_WAIT_MS: String(CONTINUE_WAIT_MS) },
);
