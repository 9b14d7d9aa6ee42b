import { bool } from '../../core/body.js';
import { bodyVerb } from '../../core/rest.js';
import { SCHEDULE_OPTIONS, notificationFields, notificationsPath, scheduleBody } from './fields.js';

export const update = bodyVerb({
  name: 'update',
  summary: 'Change the schedule, state or format of a notification (updateNotification)',
  description:
    'Only what is given changes; a new --schedule starts from its own fields. --enabled false stops it, and runs already queued send nothing.',
  method: 'PUT',
  args: ['<deployment_id>', '<notification_id>'],
  path: ([deploymentId, notificationId]) => notificationsPath(deploymentId, notificationId),
  options: [{ flags: '--enabled <bool>', description: 'Turn the schedule on or off (isEnabled)' }, ...SCHEDULE_OPTIONS],
  fields: (opts) => ({ isEnabled: bool(opts.enabled, '--enabled'), ...scheduleBody(opts) }),
  show: notificationFields,
  done: ([, notificationId]) => `Updated notification ${notificationId}`,
});
