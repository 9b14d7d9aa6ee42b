import type { UserPrincipal } from '../../http/principal.js';
import type { Services } from '../module.js';

/** The demo's published dashboard, as the workspace lists it. */
export const DEMO_DASHBOARD_TITLE = 'Sales overview';

/**
 * The reports of the demo's dashboard, all over the `my_sales` view: what an embedded user sees of
 * them depends on their `country` attribute and `segment` security context (embedding-view.ts), so
 * the same dashboard shows two embedded users two sets of rows.
 */
const REPORTS = [
  { key: 'revenue', name: 'Revenue', chartType: 'number', query: { measures: ['my_sales.revenue', 'my_sales.count'] } },
  {
    key: 'monthly',
    name: 'Revenue by month',
    chartType: 'area',
    query: {
      measures: ['my_sales.revenue'],
      timeDimensions: [{ dimension: 'my_sales.orders_created_at', granularity: 'month' }],
    },
  },
  {
    key: 'status',
    name: 'Line items by order status',
    chartType: 'bar',
    query: { measures: ['my_sales.count'], dimensions: ['my_sales.orders_status'], order: { 'my_sales.count': 'desc' } },
  },
  {
    key: 'segments',
    name: 'Revenue by country and segment',
    chartType: 'table',
    query: {
      measures: ['my_sales.revenue', 'my_sales.total_quantity'],
      dimensions: ['my_sales.customers_country', 'my_sales.customers_segment'],
    },
  },
] as const;

export interface DemoDashboard {
  workbookId: number;
  publicId: string;
}

/**
 * A workbook of the account's admin holding those reports on a dashboard, published and open to
 * embedding, so that a newcomer's first embed session has something to show; and the `country`
 * attribute the view's policy reads, which an embed session must name to send.
 */
export async function createDemoDashboard(services: Services, accountId: number, deploymentId: number): Promise<DemoDashboard> {
  if ((await services.userAttributes.findByNames(accountId, ['country'])).length === 0) {
    await services.userAttributes.create(accountId, {
      name: 'country',
      type: 'string',
      displayName: 'Country',
      description: "The embedded user's country: the demo's my_sales view shows only its rows",
    });
  }
  const admin = await accountAdmin(services, accountId);
  const workbook = await services.workbooks.create(admin, deploymentId, { name: DEMO_DASHBOARD_TITLE });
  const reportIds: Record<string, number> = {};
  for (const report of REPORTS) {
    const created = await services.reports.create(admin, deploymentId, {
      name: report.name,
      workbookId: workbook.id,
      jsonQuery: JSON.stringify(report.query),
      meta: { chartType: report.chartType },
    });
    reportIds[report.key] = created.id;
  }
  const chart = (key: string, x: number, y: number, w: number, h: number) => ({
    id: key,
    type: 'CHART' as const,
    position: { x, y, w, h },
    config: { reportId: reportIds[key] },
  });
  await services.dashboards.updateDraft(admin, deploymentId, workbook.id, {
    title: DEMO_DASHBOARD_TITLE,
    widgets: [
      {
        id: 'intro',
        type: 'TEXT',
        position: { x: 0, y: 0, w: 12, h: 1 },
        config: { text: 'Sales of your country and customer segment, from the demo dataset.' },
      },
      {
        id: 'status-filter',
        type: 'FILTER',
        position: { x: 0, y: 1, w: 6, h: 1 },
        config: { member: 'my_sales.orders_status', title: 'Order status' },
      },
      { id: 'grain', type: 'TIME_GRAIN', position: { x: 6, y: 1, w: 6, h: 1 }, config: { options: ['week', 'month', 'quarter'] } },
      chart('revenue', 0, 2, 4, 3),
      chart('monthly', 4, 2, 8, 5),
      chart('status', 0, 7, 6, 5),
      chart('segments', 6, 7, 6, 5),
    ],
  });
  const published = await services.dashboards.publish(admin, deploymentId, workbook.id, { workbookId: workbook.id });
  await services.dashboards.setEmbedAccess(admin, deploymentId, published.publicId, true);
  return { workbookId: workbook.id, publicId: published.publicId };
}

/** The admin the first start made with the account: its only user, acting as its own access token would. */
async function accountAdmin(services: Services, accountId: number): Promise<UserPrincipal> {
  const first = (await services.users.list(accountId, { first: 1 })).items[0];
  if (!first || first.role !== 'admin') throw new Error('the demo account has no admin user to own its dashboard');
  return { kind: 'accessToken', accountId, credentialId: 0, userId: first.id, role: 'admin', deploymentIds: null };
}
