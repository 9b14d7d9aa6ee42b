import { bool, int, positiveInt } from '../../core/body.js';
import { UsageError } from '../../core/errors.js';
import { defineOptions, type OptionsOf } from '../../core/define.js';
import type { Column } from '../../core/output.js';
import { id } from '../../core/rest.js';

/** The notifications of a deployment; every verb names the deployment first. */
export const notificationsPath = (deploymentId: string | undefined, notificationId?: string, tail = '') =>
  `/api/v1/deployments/${id(deploymentId, 'deployment_id')}/notifications${
    notificationId === undefined ? '' : `/${id(notificationId, 'notification_id')}`
  }${tail}`;

export const notificationColumns: Column[] = [
  ['ID', 'id'],
  ['Dashboard', 'dashboardId'],
  ['Schedule', 'humanReadableSchedule'],
  ['Enabled', 'isEnabled'],
  ['Notify', 'notificationEnabled'],
  ['Format', 'notificationFormat'],
  ['Next run', 'nextRunAt'],
];

export const notificationFields: Column[] = [
  ['ID', 'id'],
  ['Dashboard', 'dashboardId'],
  ['Schedule', 'humanReadableSchedule'],
  ['Type', 'scheduleType'],
  ['Cron', 'cronExpression'],
  ['Time zone', 'timezone'],
  ['Enabled', 'isEnabled'],
  ['Notify', 'notificationEnabled'],
  ['Format', 'notificationFormat'],
  ['Next run', 'nextRunAt'],
  ['Updated', 'updatedAt'],
];

export const recipientColumns: Column[] = [
  ['Type', 'type'],
  ['User', 'userId'],
  ['Email', 'email'],
  ['Embed user', 'embedUserId'],
  ['Tenant', 'embedTenantName'],
  ['External ID', 'externalId'],
  ['Channel', 'channelId'],
  ['Channel name', 'channelName'],
];

/** Flags of the schedule, for create and update; anything else goes in -d. */
export const SCHEDULE_OPTIONS = defineOptions([
  { flags: '--schedule <type>', description: 'How often', choices: ['HOURLY', 'DAILY', 'WEEKLY', 'MONTHLY', 'CUSTOM'] },
  { flags: '--minute <m>', description: 'Minute of the hour (0-59)' },
  { flags: '--hour <h>', description: 'Hour of the day (0-23)' },
  { flags: '--day-of-week <d>', description: 'Day of the week (0-6, Sunday = 0), for WEEKLY' },
  { flags: '--day-of-month <d>', description: 'Day of the month (1-31), for MONTHLY' },
  { flags: '--cron <expression>', description: 'Cron expression of 5 fields, for CUSTOM' },
  { flags: '--timezone <zone>', description: 'IANA time zone (default UTC)' },
  { flags: '--format <format>', description: 'What is sent: png (image inline) or pdf (PDF attached too)', choices: ['png', 'pdf'] },
  { flags: '--notify <bool>', description: 'Whether runs deliver to the recipients (notificationEnabled)' },
]);

export function scheduleBody(opts: OptionsOf<typeof SCHEDULE_OPTIONS>) {
  return {
    scheduleType: opts.schedule,
    minute: int(opts.minute, '--minute'),
    hour: int(opts.hour, '--hour'),
    dayOfWeek: int(opts.dayOfWeek, '--day-of-week'),
    dayOfMonth: int(opts.dayOfMonth, '--day-of-month'),
    customCron: opts.cron,
    timezone: opts.timezone,
    notificationFormat: opts.format,
    notificationEnabled: bool(opts.notify, '--notify'),
  };
}

/** `--user` takes a user id or an email; `--slack` a channel id, optionally `:name`. */
export function recipientsFromFlags(users: string[] | undefined, channels: string[] | undefined) {
  const recipients: Record<string, unknown>[] = [];
  for (const user of users ?? []) {
    if (/^\d+$/.test(user)) recipients.push({ type: 'USER', userId: positiveInt(user, '--user') });
    else if (user.includes('@')) recipients.push({ type: 'USER', email: user });
    else throw new UsageError(`--user takes a user id or an email address, got "${user}"`);
  }
  for (const channel of channels ?? []) {
    const [channelId, ...name] = channel.split(':');
    recipients.push({ type: 'SLACK', channelId, ...(name.length ? { channelName: name.join(':') } : {}) });
  }
  return recipients;
}
