import { getVerb } from '../../core/rest.js';
import { notificationFields, notificationsPath } from './fields.js';

export const get = getVerb({
  summary: 'Show one notification with its schedule in words and its next run (getNotification)',
  args: ['<deployment_id>', '<notification_id>'],
  path: ([deploymentId, notificationId]) => notificationsPath(deploymentId, notificationId),
  fields: notificationFields,
});
