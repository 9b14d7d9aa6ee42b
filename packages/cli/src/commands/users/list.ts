import { listVerb } from '../../core/rest.js';
import { userColumns } from './columns.js';

export const list = listVerb({
  summary: 'List internal users (getUsers)',
  path: () => '/api/v1/users',
  columns: userColumns,
  options: [{ flags: '--email <email>', description: 'Only the user with this e-mail' }],
  query: (opts) => ({ email: opts.email }),
});
