import type { TestAccount, TestServer, TestUser } from '../../test-support/server.js';
import { deploymentOf, publishedDashboard } from '../workbooks/test-fixtures.js';

/**
 * A deployment with a dashboard its member published (the member owns it: WorkbookManage) and,
 * when `notification` is set, a daily notification of it made by the member.
 */
export async function notificationFixture(server: TestServer, account: TestAccount, options: { notification?: boolean } = {}) {
  const deploymentId = await deploymentOf(server, account);
  const { dashboard, workbook } = await publishedDashboard(server, account, deploymentId);
  const base = `/api/v1/deployments/${deploymentId}/notifications`;
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown, as: TestUser = account.member) =>
    account.request({ method, url: `${base}${url}`, as, body });
  let notificationId = 0;
  if (options.notification) {
    const created = await call('POST', '', { dashboardId: dashboard.id, scheduleType: 'DAILY', hour: 9 });
    if (created.status !== 200) throw new Error(`createNotification: ${created.text}`);
    notificationId = created.body.id;
  }
  return { deploymentId, dashboard, workbook, base, call, notificationId, url: `${base}/${notificationId}` };
}
