import type { Schema } from '@plinth/api-client';
import { defineVerb } from '../../core/define.js';
import { formatObject } from '../../core/output.js';

/** The body of GET /api/v1/auth/whoami. */
export type Whoami = Schema<'WhoAmI'>;

export const verb = defineVerb({
  name: 'whoami',
  summary: 'Show the account, the user or key, the role and where the credential comes from',
  async run(f) {
    const client = await f.client();
    const response = await client.request<Whoami>('GET', '/api/v1/auth/whoami');
    if (f.output.json) return f.output.raw(response);
    const me = response.data;
    const credential =
      me.credential.kind === 'apiKey' ? `API key "${me.credential.name}" (${me.credential.prefix}…)` : 'access token (device login)';
    f.output.data(
      formatObject({
        URL: client.target.url,
        Account: `${me.account.name} (${me.account.id})`,
        User: me.user ? `${me.user.email} (${me.user.id})` : '',
        Credential: credential,
        Role: me.role,
        Deployments: me.deploymentIds === null ? 'all' : me.deploymentIds.join(', '),
        Source: client.target.source,
      }),
    );
  },
});
