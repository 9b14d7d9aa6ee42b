import type { EmbedCall, OperationCase } from '../../test-support/authorization.js';
import type { TestAccount, TestServer } from '../../test-support/server.js';
import { deploymentOf, publishedDashboard, storedWorkbook, tenantContent, textWidget, type TenantContent } from './test-fixtures.js';

/**
 * The workbooks module's operations, for the shared authorisation suite (run by workbooks.test.ts).
 * Content is made by the account's member, so the member (whose role holds only DeploymentRead)
 * acts as the owner; a key scoped to another deployment is refused by the route's requirement.
 */
const workbookUrl = async (account: TestAccount, server: TestServer, draft?: unknown) => {
  const deploymentId = await deploymentOf(server, account);
  const workbook = await storedWorkbook(server, account, deploymentId, { draft });
  return { deploymentId, workbookId: workbook.id, url: `/api/v1/deployments/${deploymentId}/workbooks/${workbook.id}` };
};

/**
 * The same operation by embed sessions, on a workbook a creator-mode session of an embed tenant
 * made (test-fixtures.ts `tenantContent`); `at` builds the request from it.
 */
const embed =
  (at: (content: TenantContent) => { url: string; body?: unknown }, options: { report?: boolean; publish?: boolean } = {}) =>
  async (account: TestAccount, server: TestServer): Promise<EmbedCall> => {
    const content = await tenantContent(server, account, options);
    return { ...at(content), deploymentId: content.deploymentId, tokens: content.tokens };
  };
const workbooksOf = (content: TenantContent) => `/api/v1/deployments/${content.deploymentId}/workbooks`;

export const cases: OperationCase[] = [
  {
    operation: 'getWorkbooks',
    method: 'GET',
    prepare: async (account, server) => ({ url: `/api/v1/deployments/${await deploymentOf(server, account)}/workbooks` }),
    embed: embed((content) => ({ url: workbooksOf(content) })),
    // Another tenant's creator lists its own tenant's workbooks: none of these.
    embedStatuses: { otherTenant: 200 },
  },
  {
    operation: 'createWorkbook',
    method: 'POST',
    prepare: async (account, server) => ({
      url: `/api/v1/deployments/${await deploymentOf(server, account)}/workbooks`,
      body: { name: 'New' },
    }),
    embed: embed((content) => ({ url: workbooksOf(content), body: { name: 'New' } })),
    embedStatuses: { otherTenant: 200 },
  },
  {
    operation: 'getWorkbook',
    method: 'GET',
    prepare: async (account, server) => ({ url: (await workbookUrl(account, server)).url }),
    embed: embed((content) => ({ url: content.workbookUrl })),
  },
  {
    operation: 'updateWorkbook',
    method: 'PUT',
    prepare: async (account, server) => ({ url: (await workbookUrl(account, server)).url, body: { name: 'Renamed' } }),
    embed: embed((content) => ({ url: content.workbookUrl, body: { name: 'Renamed' } })),
  },
  {
    operation: 'deleteWorkbook',
    method: 'DELETE',
    prepare: async (account, server) => ({ url: (await workbookUrl(account, server)).url }),
    embed: embed((content) => ({ url: content.workbookUrl })),
  },
  {
    operation: 'duplicateWorkbook',
    method: 'POST',
    prepare: async (account, server) => ({ url: `${(await workbookUrl(account, server)).url}/duplicate` }),
    embed: embed((content) => ({ url: `${content.workbookUrl}/duplicate` }), { report: true }),
  },
  {
    operation: 'updateWorkbookDashboard',
    method: 'PUT',
    prepare: async (account, server) => ({
      url: `${(await workbookUrl(account, server)).url}/dashboard`,
      body: { dashboardDraft: { widgets: [textWidget('t1')] } },
    }),
    embed: embed((content) => ({ url: `${content.workbookUrl}/dashboard`, body: { dashboardDraft: { widgets: [textWidget('t1')] } } })),
  },
  {
    operation: 'publishDashboard',
    method: 'POST',
    prepare: async (account, server) => {
      const { url, workbookId } = await workbookUrl(account, server, { widgets: [textWidget('t1')] });
      return { url: `${url}/publish`, body: { workbookId } };
    },
    embed: embed((content) => ({ url: `${content.workbookUrl}/publish`, body: { workbookId: content.workbookId } }), { report: true }),
  },
  {
    operation: 'updateDashboardEmbedAccess',
    method: 'PUT',
    prepare: async (account, server) => {
      const deploymentId = await deploymentOf(server, account);
      const { dashboard } = await publishedDashboard(server, account, deploymentId);
      return { url: `/api/v1/deployments/${deploymentId}/dashboards/${dashboard.publicId}/embed-access`, body: { allowEmbed: true } };
    },
    embed: embed(
      (content) => ({
        url: `/api/v1/deployments/${content.deploymentId}/dashboards/${content.publicId}/embed-access`,
        body: { allowEmbed: true },
      }),
      { publish: true },
    ),
  },
  // embed-access.test.ts checks the account's own dashboards with read-only embed tokens.
  {
    operation: 'getDashboard',
    method: 'GET',
    scopedStatus: 404,
    prepare: async (account, server) => {
      const { dashboard } = await publishedDashboard(server, account, await deploymentOf(server, account));
      return { url: `/api/v1/embed/dashboard/${dashboard.publicId}` };
    },
    embed: embed((content) => ({ url: `/api/v1/embed/dashboard/${content.publicId}` }), { publish: true }),
    // A tenant's published dashboard opens for its read-only sessions; the route is not on a deployment.
    embedStatuses: { readOnly: 200, otherDeployment: 404 },
  },
];
