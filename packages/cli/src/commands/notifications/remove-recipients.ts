import { UsageError } from '../../core/errors.js';
import { bodyVerb } from '../../core/rest.js';
import { notificationsPath } from './fields.js';

export const removeRecipients = bodyVerb({
  name: 'remove-recipients',
  summary: 'Unsubscribe recipients from a notification (removeRecipients)',
  description:
    'Embed users go in -d as {"recipients": [{"type": "EMBED_USER", "id": <embedUserId or externalId>, "embedTenantName": …}]}. Removing one not subscribed is no error.',
  method: 'DELETE',
  args: ['<deployment_id>', '<notification_id>'],
  path: ([deploymentId, notificationId]) => notificationsPath(deploymentId, notificationId, '/recipients'),
  options: [
    { flags: '--user <id>', description: 'A user id (repeatable)', repeatable: true },
    { flags: '--slack <channel>', description: 'A Slack channel id (repeatable)', repeatable: true },
  ],
  fields: (opts) => {
    const recipients = [
      ...(opts.user ?? []).map((user) => {
        if (!/^\d+$/.test(user)) throw new UsageError(`--user takes a user id, got "${user}"`);
        return { type: 'USER', id: Number(user) };
      }),
      ...(opts.slack ?? []).map((channel) => ({ type: 'SLACK', id: channel })),
    ];
    return { recipients: recipients.length ? recipients : undefined };
  },
  required: [['recipients', '--user or --slack']],
  done: () => 'Removed the recipients',
});
