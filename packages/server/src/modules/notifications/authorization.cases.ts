import type { OperationCase } from '../../test-support/authorization.js';
import type { TestAccount, TestServer } from '../../test-support/server.js';
import { notificationFixture } from './test-fixtures.js';

/** A notification of a dashboard the member owns: the member reaches it as the dashboard's owner, the admin by role. */
const withNotification = (account: TestAccount, server: TestServer) => notificationFixture(server, account, { notification: true });

/** The notifications module's operations, for the shared authorisation suite (run by notifications.test.ts). */
export const cases: OperationCase[] = [
  {
    operation: 'getNotifications',
    method: 'GET',
    targetsResource: false,
    prepare: async (account, server) => ({ url: (await withNotification(account, server)).base }),
  },
  {
    operation: 'createNotification',
    method: 'POST',
    targetsResource: false,
    prepare: async (account, server) => {
      const f = await notificationFixture(server, account);
      return { url: f.base, body: { dashboardId: f.dashboard.id, scheduleType: 'HOURLY' } };
    },
  },
  {
    operation: 'getNotification',
    method: 'GET',
    prepare: async (account, server) => ({ url: (await withNotification(account, server)).url }),
  },
  {
    operation: 'updateNotification',
    method: 'PUT',
    prepare: async (account, server) => ({ url: (await withNotification(account, server)).url, body: { minute: 15 } }),
  },
  {
    operation: 'deleteNotification',
    method: 'DELETE',
    successStatus: 204,
    prepare: async (account, server) => ({ url: (await withNotification(account, server)).url }),
  },
  {
    operation: 'getRecipients',
    method: 'GET',
    prepare: async (account, server) => ({ url: `${(await withNotification(account, server)).url}/recipients` }),
  },
  {
    operation: 'addRecipients',
    method: 'POST',
    prepare: async (account, server) => ({
      url: `${(await withNotification(account, server)).url}/recipients`,
      body: { recipients: [{ type: 'SLACK', channelId: 'C0123456789' }] },
    }),
  },
  {
    operation: 'removeRecipients',
    method: 'DELETE',
    successStatus: 204,
    prepare: async (account, server) => ({
      url: `${(await withNotification(account, server)).url}/recipients`,
      body: { recipients: [{ type: 'SLACK', id: 'C0123456789' }] },
    }),
  },
  {
    operation: 'getNotificationRuns',
    method: 'GET',
    prepare: async (account, server) => ({ url: `${(await withNotification(account, server)).url}/runs` }),
  },
];
