import { bodyVerb } from '../../core/rest.js';
import { notificationsPath, recipientsFromFlags } from './fields.js';

export const addRecipients = bodyVerb({
  name: 'add-recipients',
  summary: 'Subscribe users, embed users or Slack channels to a notification (addRecipients)',
  description:
    '1 to 1000 per request. Embed users (with the groups, attributes and security context their rendering uses) go in -d as {"recipients": [{"type": "EMBED_USER", "embedTenantName": …, "externalId": …}]}; flags add to its list.',
  method: 'POST',
  args: ['<deployment_id>', '<notification_id>'],
  path: ([deploymentId, notificationId]) => notificationsPath(deploymentId, notificationId, '/recipients'),
  options: [
    { flags: '--user <id-or-email>', description: 'A user of the account (repeatable)', repeatable: true },
    { flags: '--slack <channel>', description: 'A Slack channel id, optionally channelId:name (repeatable)', repeatable: true },
  ],
  fields: (opts) => {
    const recipients = recipientsFromFlags(opts.user, opts.slack);
    return { recipients: recipients.length ? recipients : undefined };
  },
  required: [['recipients', '--user or --slack']],
  done: (_args, data) =>
    `Added ${(data?.createdRecipients as unknown[] | undefined)?.length ?? 0}, updated ${(data?.updatedRecipients as unknown[] | undefined)?.length ?? 0}, unchanged ${(data?.unchangedRecipients as unknown[] | undefined)?.length ?? 0}`,
  examples: [
    'plinth notifications add-recipients 1 7 --user ann@example.com --slack C0123456789:sales',
    `plinth notifications add-recipients 1 7 -d '{"recipients":[{"type":"EMBED_USER","embedTenantName":"acme-corp","externalId":"bob@acme.com","groups":["east"]}]}'`,
  ],
});
