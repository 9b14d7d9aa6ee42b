import { defineVerb } from '../../core/define.js';
import { id } from '../../core/rest.js';

export const invite = defineVerb({
  name: 'invite',
  summary: 'Create a one-time link where a user sets their password (createUserInvite)',
  args: ['<id>'],
  async run(f, [userId]) {
    const client = await f.client();
    const response = await client.request('POST', `/api/v1/users/${id(userId)}/invites`);
    if (f.output.json) return f.output.raw(response);
    f.output.data(response.data.url);
    f.output.status(`Send this link to ${response.data.email}; it works once, until ${response.data.expiresAt}.`);
  },
});
