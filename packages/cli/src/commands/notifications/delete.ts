import { deleteVerb } from '../../core/rest.js';
import { notificationsPath } from './fields.js';

export const remove = deleteVerb({
  summary: 'Delete a notification with its recipients and runs (deleteNotification)',
  args: ['<deployment_id>', '<notification_id>'],
  path: ([deploymentId, notificationId]) => notificationsPath(deploymentId, notificationId),
  what: ([, notificationId]) => `notification ${notificationId}`,
});
