import { builtVerb } from '../../core/define.js';
import { pageOptions, pageQuery } from '../../core/rest.js';
import { notificationsPath, recipientColumns } from './fields.js';

export const recipients = builtVerb<{ first: string | undefined; after: string | undefined }>({
  name: 'recipients',
  summary: 'List the recipients of a notification, newest first (getRecipients)',
  args: ['<deployment_id>', '<notification_id>'],
  options: [...pageOptions(200)],
  async run(f, [deploymentId, notificationId], opts) {
    const client = await f.client();
    const path = notificationsPath(deploymentId, notificationId, '/recipients');
    f.output.list(await client.request('GET', path, { query: pageQuery(opts) }), recipientColumns);
  },
});
