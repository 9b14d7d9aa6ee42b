import { deleteVerb } from '../../core/rest.js';
import { userIdOf } from '../../core/users.js';

export const remove = deleteVerb({
  summary: 'Delete an internal user (deleteAccountUser)',
  args: ['<user>'],
  path: async ([user], _o, client) => `/api/v1/users/${await userIdOf(client, user)}`,
  what: ([u]) => `user ${u}`,
});
