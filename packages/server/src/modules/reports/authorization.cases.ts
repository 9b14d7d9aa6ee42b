import type { EmbedCall, OperationCase } from '../../test-support/authorization.js';
import type { TestAccount, TestServer } from '../../test-support/server.js';
import { tenantContent, type TenantContent } from '../workbooks/test-fixtures.js';

/**
 * A deployment of the account holding one report of its member: the member's role grants
 * DeploymentRead only, so the member reaches the report as its creator, the admin by role.
 */
async function withReport(account: TestAccount, server: TestServer) {
  const { id } = await server.services.deployments.create(account.id, { name: 'd' }, 'http://localhost');
  const created = await account.request({
    method: 'POST',
    url: `/api/v1/deployments/${id}/reports`,
    as: account.member,
    body: { name: 'Orders', jsonQuery: '{"measures":["orders.count"]}' },
  });
  if (created.status !== 200) throw new Error(`createReport: ${created.text}`);
  return { base: `/api/v1/deployments/${id}`, report: `/api/v1/deployments/${id}/reports/${created.body.id}` };
}

/** The same operation by embed sessions, on a report in a workbook a creator-mode session of an embed tenant made. */
const embed =
  (at: (content: TenantContent, base: string) => { url: string; body?: unknown }) =>
  async (account: TestAccount, server: TestServer): Promise<EmbedCall> => {
    const content = await tenantContent(server, account, { report: true });
    return { ...at(content, `/api/v1/deployments/${content.deploymentId}`), deploymentId: content.deploymentId, tokens: content.tokens };
  };

/** The reports module's operations, for the shared authorisation suite (run by reports.test.ts). */
export const cases: OperationCase[] = [
  {
    operation: 'getReportFolders',
    method: 'GET',
    prepare: async (account, server) => ({ url: `${(await withReport(account, server)).base}/report-folders` }),
  },
  {
    operation: 'getReports',
    method: 'GET',
    prepare: async (account, server) => ({ url: `${(await withReport(account, server)).base}/reports` }),
    embed: embed((_content, base) => ({ url: `${base}/reports` })),
    // Another tenant's creator lists its own tenant's reports: none of these.
    embedStatuses: { otherTenant: 200 },
  },
  {
    operation: 'createReport',
    method: 'POST',
    prepare: async (account, server) => ({ url: `${(await withReport(account, server)).base}/reports`, body: { name: 'New' } }),
    // In the tenant's workbook: another tenant's creator does not find it.
    embed: embed((content, base) => ({ url: `${base}/reports`, body: { name: 'New', workbookId: content.workbookId } })),
  },
  {
    operation: 'getReport',
    method: 'GET',
    prepare: async (account, server) => ({ url: (await withReport(account, server)).report }),
    embed: embed((content, base) => ({ url: `${base}/reports/${content.reportId}` })),
  },
  {
    operation: 'updateReport',
    method: 'PUT',
    prepare: async (account, server) => ({ url: (await withReport(account, server)).report, body: { title: 'Renamed' } }),
    embed: embed((content, base) => ({ url: `${base}/reports/${content.reportId}`, body: { title: 'Renamed' } })),
  },
  {
    operation: 'deleteReport',
    method: 'DELETE',
    prepare: async (account, server) => ({ url: (await withReport(account, server)).report }),
    embed: embed((content, base) => ({ url: `${base}/reports/${content.reportId}` })),
  },
  // No build yet: the refresh answers 200 with the error kept on the report, which is enough here.
  {
    operation: 'refreshReport',
    method: 'PUT',
    prepare: async (account, server) => ({ url: `${(await withReport(account, server)).report}/refresh` }),
  },
];
