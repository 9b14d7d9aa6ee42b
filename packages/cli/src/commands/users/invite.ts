import type { Ok } from '@plinth/api-client';
import { defineVerb } from '../../core/define.js';
import { userIdOf } from '../../core/users.js';

export const invite = defineVerb({
  name: 'invite',
  summary: 'Create a one-time link where a user sets their password (createUserInvite)',
  args: ['<user>'],
  examples: ['plinth users invite ada@example.com'],
  async run(f, [user]) {
    const client = await f.client();
    const response = await client.request<Ok<'/api/v1/users/{id}/invites', 'post'>>(
      'POST',
      `/api/v1/users/${await userIdOf(client, user)}/invites`,
    );
    if (f.output.json) return f.output.raw(response);
    f.output.data(response.data.url);
    f.output.status(`Send this link to ${response.data.email}; it works once, until ${response.data.expiresAt}.`);
  },
});
