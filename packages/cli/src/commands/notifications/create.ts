import { positiveInt } from '../../core/body.js';
import { bodyVerb } from '../../core/rest.js';
import { SCHEDULE_OPTIONS, notificationFields, notificationsPath, scheduleBody } from './fields.js';

export const create = bodyVerb({
  name: 'create',
  summary: 'Schedule a dashboard to be delivered (createNotification); add recipients with add-recipients',
  description:
    'HOURLY uses --minute; DAILY --hour and --minute; WEEKLY also --day-of-week; MONTHLY also --day-of-month; CUSTOM --cron only. Needs WorkbookEdit on the dashboard.',
  method: 'POST',
  args: ['<deployment_id>'],
  path: ([deploymentId]) => notificationsPath(deploymentId),
  options: [{ flags: '--dashboard <id>', description: 'The dashboard to deliver (its id)' }, ...SCHEDULE_OPTIONS],
  fields: (opts) => ({
    dashboardId: opts.dashboard === undefined ? undefined : positiveInt(opts.dashboard, '--dashboard'),
    ...scheduleBody(opts),
  }),
  required: [
    ['dashboardId', '--dashboard'],
    ['scheduleType', '--schedule'],
  ],
  show: notificationFields,
  done: (_args, data) => `Created notification ${data?.id}`,
  examples: [
    'plinth notifications create 1 --dashboard 4 --schedule WEEKLY --day-of-week 1 --hour 9 --timezone Europe/Berlin',
    'plinth notifications create 1 --dashboard 4 --schedule CUSTOM --cron "30 9 * * 1-5" --format pdf',
  ],
});
