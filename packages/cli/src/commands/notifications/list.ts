import { positiveInt } from '../../core/body.js';
import { listVerb } from '../../core/rest.js';
import { notificationColumns, notificationsPath } from './fields.js';

export const list = listVerb({
  summary: 'List the notifications of a deployment whose dashboards you may read, newest first (getNotifications)',
  args: ['<deployment_id>'],
  options: [{ flags: '--dashboard <id>', description: 'Only the notifications of this dashboard' }],
  path: ([deploymentId]) => notificationsPath(deploymentId),
  query: (opts) => ({ dashboardId: opts.dashboard === undefined ? undefined : positiveInt(opts.dashboard, '--dashboard') }),
  columns: notificationColumns,
});
