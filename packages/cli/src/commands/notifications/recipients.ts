import { builtVerb } from '../../core/define.js';
import { pageQuery } from '../../core/rest.js';
import { notificationsPath, recipientColumns } from './fields.js';

export const recipients = builtVerb<{ first: string | undefined; after: string | undefined }>({
  name: 'recipients',
  summary: 'List the recipients of a notification, newest first (getRecipients)',
  args: ['<deployment_id>', '<notification_id>'],
  options: [
    { flags: '--first <n>', description: 'Page size (default 100, at most 200)' },
    { flags: '--after <cursor>', description: 'Continue after this cursor (printed when there are more results)' },
  ],
  async run(f, [deploymentId, notificationId], opts) {
    const client = await f.client();
    const path = notificationsPath(deploymentId, notificationId, '/recipients');
    f.output.list(await client.request('GET', path, { query: pageQuery(opts) }), recipientColumns);
  },
});
