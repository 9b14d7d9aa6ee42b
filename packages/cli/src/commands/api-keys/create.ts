import { positiveInt } from '../../core/body.js';
import { bodyVerb } from '../../core/rest.js';
import { ROLES } from '../users/fields.js';

export const create = bodyVerb({
  name: 'create',
  summary: 'Create an API key; the key is printed once (createApiKey)',
  method: 'POST',
  path: () => '/api/v1/api-keys',
  options: [
    { flags: '--name <name>', description: 'Name of the key' },
    { flags: '--role <role>', description: 'Role (default member)', choices: ROLES },
    { flags: '--deployment <id>', description: 'Limit the key to this deployment (repeatable)', repeatable: true },
  ],
  fields: (opts) => ({
    name: opts.name,
    role: opts.role,
    deploymentIds: opts.deployment ? opts.deployment.map((d) => positiveInt(d, '--deployment')) : undefined,
  }),
  required: [['name', '--name']],
  done: () => 'Store the key now: it is not shown again.',
  show: [
    ['ID', 'id'],
    ['Name', 'name'],
    ['Role', 'role'],
    ['Deployments', (k) => k.deploymentIds ?? 'all'],
    ['Key', 'key'],
  ],
});
