import type { OperationCase } from '../../test-support/authorization.js';
import type { TestAccount, TestServer } from '../../test-support/server.js';
import { deploymentOf, publishedDashboard, storedWorkbook, textWidget } from './test-fixtures.js';

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

export const cases: OperationCase[] = [
  {
    operation: 'getWorkbooks',
    method: 'GET',
    prepare: async (account, server) => ({ url: `/api/v1/deployments/${await deploymentOf(server, account)}/workbooks` }),
  },
  {
    operation: 'createWorkbook',
    method: 'POST',
    prepare: async (account, server) => ({
      url: `/api/v1/deployments/${await deploymentOf(server, account)}/workbooks`,
      body: { name: 'New' },
    }),
  },
  { operation: 'getWorkbook', method: 'GET', prepare: async (account, server) => ({ url: (await workbookUrl(account, server)).url }) },
  {
    operation: 'updateWorkbook',
    method: 'PUT',
    prepare: async (account, server) => ({ url: (await workbookUrl(account, server)).url, body: { name: 'Renamed' } }),
  },
  {
    operation: 'deleteWorkbook',
    method: 'DELETE',
    prepare: async (account, server) => ({ url: (await workbookUrl(account, server)).url }),
  },
  {
    operation: 'duplicateWorkbook',
    method: 'POST',
    prepare: async (account, server) => ({ url: `${(await workbookUrl(account, server)).url}/duplicate` }),
  },
  {
    operation: 'updateWorkbookDashboard',
    method: 'PUT',
    prepare: async (account, server) => ({
      url: `${(await workbookUrl(account, server)).url}/dashboard`,
      body: { dashboardDraft: { widgets: [textWidget('t1')] } },
    }),
  },
  {
    operation: 'publishDashboard',
    method: 'POST',
    prepare: async (account, server) => {
      const { url, workbookId } = await workbookUrl(account, server, { widgets: [textWidget('t1')] });
      return { url: `${url}/publish`, body: { workbookId } };
    },
  },
  {
    operation: 'updateDashboardEmbedAccess',
    method: 'PUT',
    prepare: async (account, server) => {
      const deploymentId = await deploymentOf(server, account);
      const { dashboard } = await publishedDashboard(server, account, deploymentId);
      return { url: `/api/v1/deployments/${deploymentId}/dashboards/${dashboard.publicId}/embed-access`, body: { allowEmbed: true } };
    },
  },
  // Also accepts embed tokens, which the shared suite cannot mint: embed-access.test.ts checks its credentials.
  {
    operation: 'getDashboard',
    method: 'GET',
    scopedStatus: 404,
    prepare: async (account, server) => {
      const { dashboard } = await publishedDashboard(server, account, await deploymentOf(server, account));
      return { url: `/api/v1/embed/dashboard/${dashboard.publicId}` };
    },
  },
];
