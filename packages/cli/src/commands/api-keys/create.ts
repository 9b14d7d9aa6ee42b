import { positiveInt } from '../../core/body.js';
import { bodyVerb } from '../../core/rest.js';
import { UsageError } from '../../core/errors.js';
import { ROLES } from '../users/fields.js';

/** Permissions replace the role and hold on named deployments: told before anything is sent. */
function permissionsOf(permissions: string[] | undefined, deployments: string[] | undefined, role: string | undefined) {
  if (permissions === undefined) return undefined;
  const usage = 'Example: plinth api-keys create --name ci --permission SchemaRead --permission SchemaUpdate --deployment 3';
  if (permissions.some((p) => p === '')) throw new UsageError('--permission is empty; name a permission such as SchemaRead', usage);
  if (role !== undefined) throw new UsageError('--role and --permission do not go together: permissions replace the role', usage);
  if (deployments === undefined)
    throw new UsageError('--permission needs --deployment: a key holds its permissions on named deployments', usage);
  return permissions;
}

export const create = bodyVerb({
  name: 'create',
  summary: 'Create an API key; the key is printed once (createApiKey)',
  method: 'POST',
  path: () => '/api/v1/api-keys',
  options: [
    { flags: '--name <name>', description: 'Name of the key' },
    { flags: '--role <role>', description: 'Role (default member); not with --permission', choices: ROLES },
    { flags: '--deployment <id>', description: 'Limit the key to this deployment (repeatable)', repeatable: true },
    {
      flags: '--permission <name>',
      description: "A permission the key holds on each --deployment instead of its role's, e.g. SchemaRead (repeatable)",
      repeatable: true,
    },
  ],
  examples: [
    'plinth api-keys create --name reporting --deployment 3',
    'plinth api-keys create --name ci --permission SchemaRead --permission SchemaUpdate --permission SchemaUpdateDevBranches --permission DeploymentRead --deployment 3',
  ],
  fields: (opts) => ({
    name: opts.name,
    role: opts.role,
    permissions: permissionsOf(opts.permission, opts.deployment, opts.role),
    deploymentIds: opts.deployment ? opts.deployment.map((d) => positiveInt(d, '--deployment')) : undefined,
  }),
  required: [['name', '--name']],
  done: () => 'Store the key now: it is not shown again.',
  show: [
    ['ID', 'id'],
    ['Name', 'name'],
    ['Role', 'role'],
    ['Deployments', (k) => k.deploymentIds ?? 'all'],
    ['Permissions', (k) => k.permissions ?? 'of its role'],
    ['Key', 'key'],
  ],
});
