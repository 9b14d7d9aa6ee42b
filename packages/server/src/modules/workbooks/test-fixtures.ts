import type { TestAccount, TestServer } from '../../test-support/server.js';
import { newPublicId } from '../reports/public.js';

/** A deployment of the account, for content to live in. */
export const deploymentOf = async (server: TestServer, account: TestAccount) =>
  (await server.services.deployments.create(account.id, { name: 'd' }, 'http://localhost')).id;

/** A workbook stored directly, owned by `ownerId` (the member by default: the owner holds Manage). */
export async function storedWorkbook(
  server: TestServer,
  account: TestAccount,
  deploymentId: number,
  options: { ownerId?: number; name?: string; folderId?: number | null; draft?: unknown } = {},
) {
  return server.store.db
    .insertInto('workbook')
    .values({
      account_id: account.id,
      deployment_id: deploymentId,
      folder_id: options.folderId ?? null,
      name: options.name ?? 'Sales',
      created_by: options.ownerId ?? account.member.id,
      dashboard_draft: options.draft === undefined ? null : JSON.stringify(options.draft),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A report of the workbook, stored directly (the reports module owns its API). */
export async function storedReport(
  server: TestServer,
  workbook: { id: number; account_id: number; deployment_id: number },
  name = 'Revenue',
) {
  return server.store.db
    .insertInto('report')
    .values({
      account_id: workbook.account_id,
      deployment_id: workbook.deployment_id,
      workbook_id: workbook.id,
      public_id: newPublicId(),
      name,
      json_query: JSON.stringify({ measures: ['orders.count'] }),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function storedFolder(server: TestServer, account: TestAccount, deploymentId: number, ownerId: number, name = 'Team') {
  return server.store.db
    .insertInto('folder')
    .values({ account_id: account.id, deployment_id: deploymentId, name, created_by: ownerId })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export const textWidget = (id: string, x = 0) => ({ id, type: 'TEXT', position: { x, y: 0, w: 4, h: 2 }, config: { text: 'hi' } });
export const chartWidget = (id: string, reportId: number) => ({
  id,
  type: 'CHART',
  position: { x: 0, y: 2, w: 6, h: 4 },
  config: { reportId },
});

/** A workbook with a one-widget draft, published once by its owner (the member); its dashboard. */
export async function publishedDashboard(server: TestServer, account: TestAccount, deploymentId: number) {
  const workbook = await storedWorkbook(server, account, deploymentId, { draft: { title: 'Board', widgets: [textWidget('t1')] } });
  const response = await account.request({
    method: 'POST',
    url: `/api/v1/deployments/${deploymentId}/workbooks/${workbook.id}/publish`,
    as: account.member,
    body: { workbookId: workbook.id },
  });
  if (response.status !== 200) throw new Error(`publish: ${response.text}`);
  return { workbook, dashboard: response.body as { id: number; publicId: string; versionNumber: number } };
}
