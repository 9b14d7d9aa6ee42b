import { bodyVerb, id } from '../../core/rest.js';
import { userFields, userOptions } from './fields.js';

export const update = bodyVerb({
  name: 'update',
  summary: 'Change an internal user (updateAccountUser)',
  method: 'PATCH',
  args: ['<id>'],
  path: ([userId]) => `/api/v1/users/${id(userId)}`,
  options: userOptions,
  fields: userFields,
});
