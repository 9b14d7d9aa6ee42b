import type { OperationCase } from '../../test-support/authorization.js';
import type { TestAccount, TestServer } from '../../test-support/server.js';

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
  },
  {
    operation: 'createReport',
    method: 'POST',
    prepare: async (account, server) => ({ url: `${(await withReport(account, server)).base}/reports`, body: { name: 'New' } }),
  },
  { operation: 'getReport', method: 'GET', prepare: async (account, server) => ({ url: (await withReport(account, server)).report }) },
  {
    operation: 'updateReport',
    method: 'PUT',
    prepare: async (account, server) => ({ url: (await withReport(account, server)).report, body: { title: 'Renamed' } }),
  },
  { operation: 'deleteReport', method: 'DELETE', prepare: async (account, server) => ({ url: (await withReport(account, server)).report }) },
  // No build yet: the refresh answers 200 with the error kept on the report, which is enough here.
  {
    operation: 'refreshReport',
    method: 'PUT',
    prepare: async (account, server) => ({ url: `${(await withReport(account, server)).report}/refresh` }),
  },
];
