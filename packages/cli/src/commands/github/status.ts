import type { Ok } from '@plinth/api-client';
import { defineVerb } from '../../core/define.js';
import { formatObject, formatTable } from '../../core/output.js';
import { connectionColumns } from './common.js';

export const status = defineVerb({
  name: 'status',
  summary: "Show whether GitHub is configured, the App's name, and the connected deployments (getGithubStatus)",
  async run(f) {
    const client = await f.client();
    const response = await client.request<Ok<'/api/v1/github', 'get'>>('GET', '/api/v1/github');
    if (f.output.json) return f.output.raw(response);
    const s = response.data;
    f.output.data(
      formatObject({
        Configured: s.configured ? 'yes' : 'no (set PLINTH_GITHUB_APP_ID and PLINTH_GITHUB_APP_PRIVATE_KEY on the server)',
        'API URL': s.apiUrl,
        Webhook: s.webhookConfigured ? 'verified with PLINTH_GITHUB_WEBHOOK_SECRET' : 'not configured',
        App: s.app ? `${s.app.name} (${s.app.slug}) ${s.app.htmlUrl}` : '',
        ...(s.error ? { Error: s.error } : {}),
      }),
    );
    if (s.connections.length > 0) f.output.data(`\n${formatTable(connectionColumns, s.connections)}`);
    else f.output.notice('No deployment is connected to GitHub');
  },
});
