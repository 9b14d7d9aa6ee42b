import { builtVerb } from '../../core/define.js';
import type { Column } from '../../core/output.js';
import { pageOptions, pageQuery } from '../../core/rest.js';
import { notificationsPath } from './fields.js';

interface Delivery {
  status: string;
  attempts: number;
}

const runColumns: Column[] = [
  ['ID', 'id'],
  ['Due', 'dueAt'],
  ['Status', 'status'],
  ['Renderings', 'renderings'],
  ['Sent', (r) => (r.deliveries as Delivery[]).filter((d) => d.status === 'sent').length],
  ['Failed', (r) => (r.deliveries as Delivery[]).filter((d) => d.status === 'failed').length],
  ['Attempts', (r) => (r.deliveries as Delivery[]).reduce((n, d) => n + d.attempts, 0)],
  ['Note', 'note'],
];

export const runs = builtVerb<{ first: string | undefined; after: string | undefined }>({
  name: 'runs',
  summary: "List a notification's runs and their deliveries, newest first (getNotificationRuns); --json has each recipient's record",
  args: ['<deployment_id>', '<notification_id>'],
  options: [...pageOptions(200)],
  async run(f, [deploymentId, notificationId], opts) {
    const client = await f.client();
    const path = notificationsPath(deploymentId, notificationId, '/runs');
    f.output.list(await client.request('GET', path, { query: pageQuery(opts) }), runColumns);
  },
});
