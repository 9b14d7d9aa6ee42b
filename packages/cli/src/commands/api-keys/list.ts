import { listVerb } from '../../core/rest.js';

export const list = listVerb({
  summary: 'List API keys (listApiKeys)',
  path: () => '/api/v1/api-keys',
  columns: [
    ['ID', 'id'],
    ['Name', 'name'],
    ['Role', 'role'],
    ['Prefix', 'prefix'],
    ['Deployments', (k) => k.deploymentIds ?? 'all'],
    ['Permissions', (k) => k.permissions ?? 'of its role'],
    ['Last used', 'lastUsedAt'],
    ['Revoked', 'revokedAt'],
  ],
});
