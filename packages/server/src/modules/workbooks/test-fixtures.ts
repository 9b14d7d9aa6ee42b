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

/** An embed token, minted as a host page gets one: generate-session with the admin's key, then the exchange. */
export async function embedToken(account: TestAccount, body: Record<string, unknown>): Promise<string> {
  const generated = await account.request({ method: 'POST', url: '/api/v1/embed/generate-session', as: account.admin, body });
  if (generated.status !== 200) throw new Error(`generate-session: ${generated.text}`);
  const exchanged = await account.request({
    method: 'POST',
    url: '/api/v1/embed/session/token',
    body: { sessionId: generated.body.sessionId },
  });
  if (exchanged.status !== 200) throw new Error(`session/token: ${exchanged.text}`);
  return exchanged.body.token as string;
}

/** A creator-mode token of an embed tenant for a deployment (the account's useCreatorMode turned on first). */
export async function creatorToken(
  server: TestServer,
  account: TestAccount,
  deploymentId: number,
  tenant = 'tenant-one',
  externalId = 'ann',
) {
  await server.services.tenantSettings.update(account.id, { useCreatorMode: true });
  return embedToken(account, { deploymentId, externalId, embedTenantName: tenant, creatorMode: true });
}

/** What the shared suite calls an operation with on an embed tenant's content (test-support/authorization.ts). */
export interface TenantContent {
  deploymentId: number;
  /** /api/v1/deployments/{deploymentId}/workbooks/{id} */
  workbookUrl: string;
  workbookId: number;
  reportId: number | null;
  publicId: string | null;
  tokens: { creator: string; readOnly: string; otherTenant: string; otherDeployment: string };
}

/**
 * A workbook of embed tenant `tenant-one` made through the API by a creator-mode session (with a
 * report and a draft showing it, published when asked), and tokens of the sessions around it: a
 * read-only one of the same tenant, a creator of `tenant-two`, and a creator of `tenant-one` minted
 * for another deployment.
 */
export async function tenantContent(
  server: TestServer,
  account: TestAccount,
  options: { report?: boolean; publish?: boolean } = {},
): Promise<TenantContent> {
  const deploymentId = await deploymentOf(server, account);
  const creator = await creatorToken(server, account, deploymentId);
  const base = `/api/v1/deployments/${deploymentId}`;
  const call = async (method: 'POST' | 'PUT', url: string, body: unknown) => {
    const response = await account.request({ method, url: `${base}${url}`, as: creator, body });
    if (response.status !== 200) throw new Error(`${method} ${url}: ${response.text}`);
    return response.body;
  };
  const workbook = await call('POST', '/workbooks', { name: 'Tenant board' });
  let reportId: number | null = null;
  let publicId: string | null = null;
  if (options.report || options.publish) {
    reportId = (await call('POST', '/reports', { name: 'Orders', workbookId: workbook.id, jsonQuery: '{"measures":["orders.count"]}' })).id;
    await call('PUT', `/workbooks/${workbook.id}/dashboard`, {
      dashboardDraft: { title: 'Board', widgets: [chartWidget('c1', reportId!)] },
    });
  }
  if (options.publish) publicId = (await call('POST', `/workbooks/${workbook.id}/publish`, { workbookId: workbook.id })).publicId;
  const elsewhere = await deploymentOf(server, account);
  return {
    deploymentId,
    workbookUrl: `${base}/workbooks/${workbook.id}`,
    workbookId: workbook.id,
    reportId,
    publicId,
    tokens: {
      creator,
      readOnly: await embedToken(account, { deploymentId, externalId: 'bob', embedTenantName: 'tenant-one' }),
      otherTenant: await creatorToken(server, account, deploymentId, 'tenant-two', 'cid'),
      otherDeployment: await creatorToken(server, account, elsewhere),
    },
  };
}
