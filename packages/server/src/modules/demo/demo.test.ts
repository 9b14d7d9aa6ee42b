import { expect, it } from 'vitest';
import { describeOnStores, type TestServer } from '../../test-support/server.js';
import { dataDirOverride } from '../data-api/test-fixtures.js';
import { demoOnFirstStart, DEMO_NAME, type DemoLog, type DemoOptions } from './service.js';

function recordingLog() {
  const lines: { level: string; message: string; details: object }[] = [];
  const log: DemoLog = {
    info: (details, message) => lines.push({ level: 'info', message, details }),
    error: (details, message) => lines.push({ level: 'error', message, details }),
  };
  return { log, lines };
}

/** The first start as main.ts runs it, on a fresh account of the test store, with builds running in the background. */
async function firstStart(server: TestServer, start: { created?: boolean; enabled?: boolean } = {}, options: DemoOptions = {}) {
  const account = await server.newAccount();
  const { log, lines } = recordingLog();
  // Without a runner (waitMs 0 below), the build stays queued: the wait runs out whatever the machine's speed.
  const runJobs = options.waitMs !== 0;
  if (runJobs) await server.jobs.start();
  try {
    const line = await demoOnFirstStart(
      server.services,
      { created: start.created ?? true, enabled: start.enabled ?? true, tenant: account.name, baseUrl: 'http://127.0.0.1:4000' },
      log,
      { lineItems: 2_000, ...options },
    );
    return { account, line, lines };
  } finally {
    if (runJobs) await server.jobs.stop();
  }
}

describeOnStores(
  'the first start creates the demo deployment (issue 14, first start)',
  (server) => {
    it('creates "Demo" with the sample model built and the sample data loaded, so a token and a load work at once', async () => {
      const { account, line, lines } = await firstStart(server());
      expect(lines).toEqual([expect.objectContaining({ level: 'info', message: 'demo deployment built' })]);
      const list = await account.request({ method: 'GET', url: '/api/v1/deployments', as: account.admin });
      expect(list.body.items.map((d: { name: string }) => d.name)).toEqual([DEMO_NAME]);
      const id = list.body.items[0].id as number;
      // The URL is the deployment's own: host-based here, as the test servers set PLINTH_BASE_DOMAIN.
      const workbooks = await account.request({ method: 'GET', url: `/api/v1/deployments/${id}/workbooks`, as: account.admin });
      const [workbook] = workbooks.body.items;
      expect(workbook).toMatchObject({ name: 'Sales overview' });
      expect(workbook.dashboardPublished).toMatchObject({ title: 'Sales overview' });
      const publicId = /embed\/dashboard\/([^?]+)\?/.exec(line ?? '')?.[1];
      expect(line).toBe(
        `Demo deployment ${id} ("Demo") serves the sample data at ${list.body.items[0].deploymentUrl}/cubejs-api/v1 (token: plinth deployments token ${id}).\n` +
          `Its dashboard "Sales overview" is published for embedding: http://127.0.0.1:4000/embed/dashboard/${publicId}?session=<sessionId>`,
      );

      const minted = await account.request({ method: 'POST', url: `/api/v1/deployments/${id}/token`, as: account.admin, body: {} });
      const query = { measures: ['orders.count', 'line_items.count'] };
      const load = await account.request({
        method: 'GET',
        url: `/d/${id}/cubejs-api/v1/load?query=${encodeURIComponent(JSON.stringify(query))}`,
        as: minted.body.cubeApiToken,
      });
      expect(load.status, load.text).toBe(200);
      // sampleSizes(2,000): 500 orders and 2,000 line items; counts are strings, as Cube answers them.
      expect(load.body.data).toEqual([{ 'orders.count': '500', 'line_items.count': '2000' }]);
    });

    it("its my_sales view shows an embedded user only their country's and segment's rows: two users, two totals of one query", async () => {
      const { account, line } = await firstStart(server());
      const id = (await account.request({ method: 'GET', url: '/api/v1/deployments', as: account.admin })).body.items[0].id as number;
      // The demo defines the attribute its view's policy reads, so embed sessions may send it at once.
      const attributes = await account.request({ method: 'GET', url: '/api/v1/user-attributes', as: account.admin });
      expect(attributes.body.items ?? attributes.body.data).toEqual([expect.objectContaining({ name: 'country', type: 'string' })]);
      const tokenOf = async (externalId: string, country: string, segment: string) => {
        const body = {
          deploymentId: id,
          externalId,
          userAttributes: [{ name: 'country', value: country }],
          securityContext: { segment },
        };
        const session = await account.request({ method: 'POST', url: '/api/v1/embed/generate-session', as: account.admin, body });
        expect(session.status, session.text).toBe(200);
        const token = await account.request({
          method: 'POST',
          url: '/api/v1/embed/session/token',
          body: { sessionId: session.body.sessionId },
        });
        return token.body.token as string;
      };
      const totals = async (token: string, dimensions: string[] = []) => {
        const query = { measures: ['my_sales.count'], dimensions };
        const load = await account.request({
          method: 'GET',
          url: `/d/${id}/cubejs-api/v1/load?query=${encodeURIComponent(JSON.stringify(query))}`,
          as: token,
        });
        expect(load.status, load.text).toBe(200);
        return load.body.data as Array<Record<string, string>>;
      };
      const ann = await totals(await tokenOf('ann', 'USA', 'consumer'), ['my_sales.customers_country', 'my_sales.customers_segment']);
      expect(ann.map((row) => [row['my_sales.customers_country'], row['my_sales.customers_segment']])).toEqual([['USA', 'consumer']]);
      // The demo's dashboard opens for an embed token, its charts' reports over my_sales.
      const publicId = /embed\/dashboard\/([^?]+)\?/.exec(line ?? '')?.[1];
      const dashboard = await account.request({
        method: 'GET',
        url: `/api/v1/embed/dashboard/${publicId}`,
        as: await tokenOf('ann', 'USA', 'consumer'),
      });
      expect(dashboard.status, dashboard.text).toBe(200);
      const charts = dashboard.body.config.widgets.filter((w: { type: string }) => w.type === 'CHART');
      expect(charts).toHaveLength(4);
      const [annTotal] = await totals(await tokenOf('ann', 'USA', 'consumer'));
      const [bobTotal] = await totals(await tokenOf('bob', 'France', 'corporate'));
      expect(annTotal!['my_sales.count']).not.toBe(bobTotal!['my_sales.count']);
      // A token without the user attribute (a deployment token carries none) sees no row, not every row.
      const body = { securityContext: { segment: 'consumer' } };
      const minted = await account.request({ method: 'POST', url: `/api/v1/deployments/${id}/token`, as: account.admin, body });
      expect(await totals(minted.body.cubeApiToken)).toEqual([{ 'my_sales.count': '0' }]);
    });

    it('a demo not built within the bound is logged and the start goes on, the deployment left to finish building', async () => {
      const { account, line, lines } = await firstStart(server(), {}, { waitMs: 0 });
      expect(line).toBeUndefined();
      expect(lines).toEqual([
        expect.objectContaining({
          level: 'error',
          message: 'the demo deployment is not built',
          details: expect.objectContaining({ status: 'building' }),
        }),
      ]);
      const list = await account.request({ method: 'GET', url: '/api/v1/deployments', as: account.admin });
      expect(list.body.items.map((d: { name: string }) => d.name)).toEqual([DEMO_NAME]);
    });

    it('a start that did not create the account, or PLINTH_DEMO off, creates nothing', async () => {
      for (const start of [{ created: false }, { enabled: false }]) {
        const { account, line, lines } = await firstStart(server(), start);
        expect([line, lines]).toEqual([undefined, []]);
        const list = await account.request({ method: 'GET', url: '/api/v1/deployments', as: account.admin });
        expect(list.body.items).toEqual([]);
      }
    });
  },
  dataDirOverride(),
);
