import { getVerb } from '../../core/rest.js';
import { userIdOf } from '../../core/users.js';

export const get = getVerb({
  summary: 'Show one user, by id or e-mail address (getAccountUser)',
  args: ['<user>'],
  path: async ([user], _o, client) => `/api/v1/users/${await userIdOf(client, user)}`,
});
