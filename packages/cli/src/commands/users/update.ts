import { bodyVerb } from '../../core/rest.js';
import { userIdOf } from '../../core/users.js';
import { userFields, userOptions } from './fields.js';

export const update = bodyVerb({
  name: 'update',
  summary: 'Change an internal user (updateAccountUser)',
  method: 'PATCH',
  args: ['<user>'],
  path: async ([user], _o, client) => `/api/v1/users/${await userIdOf(client, user)}`,
  options: userOptions,
  fields: userFields,
});
