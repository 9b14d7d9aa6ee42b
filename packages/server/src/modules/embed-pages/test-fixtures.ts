import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import { newPublicId } from '../reports/public.js';
import { createDemoDeployment } from '../demo/service.js';
import type { TestAccount, TestServer } from '../../test-support/server.js';

/** The demo's embedding view (modules/demo): each embedded user sees their country's and segment's rows. */
export const VIEW = 'my_sales';

/** The widgets of the test dashboard: one of each type, charts on the demo's view. */
function widgets(reports: Record<string, number>) {
  const at = (y: number, w = 6) => ({ x: 0, y, w, h: 4 });
  return [
    { id: 'intro', type: 'TEXT', position: at(0, 12), config: { title: 'About', text: 'Sales you may see.' } },
    { id: 'status', type: 'FILTER', position: at(1, 6), config: { member: `${VIEW}.orders_status`, title: 'Order status' } },
    { id: 'grain', type: 'TIME_GRAIN', position: at(1, 6), config: { options: ['month', 'year'] } },
    { id: 'kpi', type: 'CHART', position: at(2, 4), config: { reportId: reports.kpi } },
    { id: 'by-country', type: 'CHART', position: at(2, 8), config: { reportId: reports.byCountry } },
    {
      id: 'tabs',
      type: 'TABS_CONTAINER',
      position: at(3, 12),
      config: {
        tabs: [
          { title: 'Trend', widgetIds: ['trend'] },
          { title: 'Segments', widgetIds: ['segments'] },
        ],
      },
    },
    { id: 'trend', type: 'CHART', position: at(4, 12), config: { reportId: reports.trend } },
    { id: 'segments', type: 'CHART', position: at(4, 12), config: { reportId: reports.segments } },
    { id: 'ask', type: 'AI', position: at(5, 12), config: { title: 'Ask about sales' } },
  ];
}

const REPORTS = {
  kpi: { name: 'Orders', query: { measures: [`${VIEW}.count`] }, chartType: 'number' },
  byCountry: {
    name: 'Revenue by country',
    query: { measures: [`${VIEW}.revenue`], dimensions: [`${VIEW}.customers_country`] },
    chartType: 'bar',
  },
  trend: {
    name: 'Orders over time',
    query: { measures: [`${VIEW}.count`], timeDimensions: [{ dimension: `${VIEW}.orders_created_at`, granularity: 'month' }] },
    chartType: 'area',
  },
  segments: { name: 'Segments', query: { measures: [`${VIEW}.count`], dimensions: [`${VIEW}.customers_segment`] }, chartType: 'pie' },
} as const;

export interface EmbedSite {
  account: TestAccount;
  /** `http://<account host>:<port>`: the embed pages' origin. */
  origin: string;
  deploymentId: number;
  publicId: string;
  /** A fresh one-time session for an embedded user (generate-session's body beside deploymentId). */
  session(body: Record<string, unknown>): Promise<string>;
  /** The dashboard page's URL for a session, with more URL parameters. */
  dashboardUrl(sessionId: string, params?: Record<string, string>): string;
}

/**
 * The server listening on a port, its account's demo deployment (sample data, the embedding
 * view, its `country` user attribute and its own dashboard), and a published dashboard of four reports open to embedding.
 */
export async function embedSite(server: TestServer): Promise<EmbedSite> {
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const port = (server.app.server.address() as AddressInfo).port;
  const account = await server.newAccount();
  const origin = `http://${account.host}:${port}`;
  await server.jobs.start();
  let deploymentId: number;
  try {
    const demo = await createDemoDeployment(server.services, account.id, origin, { lineItems: 2_000 });
    expect(demo.status, JSON.stringify(demo)).toBe('built');
    deploymentId = demo.deploymentId;
  } finally {
    await server.jobs.stop();
  }
  // The demo defines the `country` attribute its view's policy reads.
  const attributes = await account.request({ method: 'GET', url: '/api/v1/user-attributes', as: account.admin });
  expect(attributes.status, attributes.text).toBe(200);
  expect(JSON.stringify(attributes.body)).toContain('"country"');

  const db = server.store.db;
  const workbook = await db
    .insertInto('workbook')
    .values({ account_id: account.id, deployment_id: deploymentId, name: 'Sales', created_by: account.member.id })
    .returningAll()
    .executeTakeFirstOrThrow();
  const ids: Record<string, number> = {};
  for (const [key, report] of Object.entries(REPORTS)) {
    const row = await db
      .insertInto('report')
      .values({
        account_id: account.id,
        deployment_id: deploymentId,
        workbook_id: workbook.id,
        public_id: newPublicId(),
        name: report.name,
        title: report.name,
        json_query: JSON.stringify(report.query),
        meta: JSON.stringify({ chartType: report.chartType }),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    ids[key] = row.id;
  }
  const draft = { title: 'Sales board', widgets: widgets(ids) };
  await db
    .updateTable('workbook')
    .set({ dashboard_draft: JSON.stringify(draft) })
    .where('id', '=', workbook.id)
    .execute();
  const published = await account.request({
    method: 'POST',
    url: `/api/v1/deployments/${deploymentId}/workbooks/${workbook.id}/publish`,
    as: account.member,
    body: { workbookId: workbook.id },
  });
  expect(published.status, published.text).toBe(200);
  const publicId = published.body.publicId as string;
  const allowed = await account.request({
    method: 'PUT',
    url: `/api/v1/deployments/${deploymentId}/dashboards/${publicId}/embed-access`,
    as: account.admin,
    body: { allowEmbed: true },
  });
  expect(allowed.status, allowed.text).toBe(200);

  return {
    account,
    origin,
    deploymentId,
    publicId,
    async session(body) {
      const generated = await account.request({
        method: 'POST',
        url: '/api/v1/embed/generate-session',
        as: account.admin,
        body: { deploymentId, ...body },
      });
      expect(generated.status, generated.text).toBe(200);
      return generated.body.sessionId as string;
    },
    dashboardUrl: (sessionId, params = {}) =>
      `${origin}/embed/dashboard/${publicId}?${new URLSearchParams({ session: sessionId, ...params }).toString()}`,
  };
}

/** An embedded user of the demo: their country (a user attribute) and segment (security context). */
export const user = (externalId: string, country: string, segment: string, extra: Record<string, unknown> = {}) => ({
  externalId,
  userAttributes: [{ name: 'country', value: country }],
  securityContext: { segment },
  ...extra,
});

export interface HostPage {
  /** The host page's URL (another origin: 127.0.0.1) framing `src` at `width` pixels. */
  url(src: string, width?: number): string;
  close(): Promise<void>;
}

/** The customer's product: a page on another origin whose iframe shows an embed page. */
export async function startHostPage(): Promise<HostPage> {
  const server: Server = createServer((request, response) => {
    const query = new URL(request.url ?? '/', 'http://127.0.0.1').searchParams;
    const src = query.get('src') ?? '';
    const width = Number(query.get('width') ?? '1000');
    const escaped = src.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(
      `<!doctype html><html lang="en"><head><title>Host</title></head><body style="margin:0">` +
        `<iframe id="embed" title="Analytics" src="${escaped}" width="${width}" height="900" style="border:0"></iframe></body></html>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (src, width = 1000) => `http://127.0.0.1:${port}/?${new URLSearchParams({ src, width: String(width) }).toString()}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
