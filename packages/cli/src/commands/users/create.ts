import { bodyVerb } from '../../core/rest.js';
import { userFields, userOptions } from './fields.js';

export const create = bodyVerb({
  name: 'create',
  summary: 'Create an internal user (createAccountUser)',
  method: 'POST',
  path: () => '/api/v1/users',
  options: userOptions,
  fields: userFields,
  required: [['email', '--email']],
  done: (_args, data) => `Created user ${data?.id}; give them a password with \`plinth users invite ${data?.id}\``,
  examples: ['plinth users create --email ada@example.com --display-name "Ada" --role admin'],
});
