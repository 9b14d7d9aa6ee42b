import { beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT, authorize, deploymentScope, WITHIN_SCOPE, type Resource } from './authorize.js';
import { permissionCatalog, type Permission } from './permissions.js';
import type { ApiKeyPrincipal, EmbedTokenPrincipal, Principal } from './principal.js';
import type { Role } from '../store/schema.js';
import { loadModules } from '../modules/index.js';

// Plinth's own actions, and who holds them, are declared by the modules.
beforeAll(() => loadModules());

const key = (role: Role, deploymentIds: number[] | null): ApiKeyPrincipal => ({
  kind: 'apiKey',
  accountId: 1,
  credentialId: 9,
  userId: 3,
  role,
  deploymentIds,
});
const deployment = (id: number): Resource => ({ type: 'deployment', id });
const embed = (creatorMode: boolean): Principal => ({
  kind: 'embedToken',
  accountId: 1,
  claims: { deploymentId: 5, creatorMode, embedTenantId: 7 } as EmbedTokenPrincipal['claims'],
});
const credential = (role: Role, deploymentIds: number[] | null): Resource => ({ type: 'credential', role, deploymentIds });

/** role × permission × scope × resource → null (allowed) or the refusal's message. */
const table: Array<[string, Principal, Permission, Resource, string | RegExp | null]> = [
  // Roles: a member reads, an admin also changes.
  ['member reads the account', key('member', null), 'AccountRead', ACCOUNT, null],
  ['member changes the account', key('member', null), 'AccountManage', ACCOUNT, 'This operation requires the admin role'],
  ['admin changes the account', key('admin', null), 'AccountManage', ACCOUNT, null],
  ['member reads a deployment', key('member', null), 'DeploymentRead', deployment(5), null],
  ['member creates a deployment', key('member', null), 'DeploymentCreate', ACCOUNT, 'This operation requires the admin role'],
  ['member updates a schema', key('member', null), 'SchemaUpdate', deployment(5), 'This operation requires the admin role'],
  ['admin updates dev branches', key('admin', null), 'SchemaUpdateDevBranches', deployment(5), null],
  // Scope on deployments.
  ['scoped member reads its deployment', key('member', [5]), 'DeploymentRead', deployment(5), null],
  [
    'scoped member reads another deployment',
    key('member', [5]),
    'DeploymentRead',
    deployment(6),
    'This API key is not allowed to access deployment 6',
  ],
  ['key scoped to nothing', key('admin', []), 'DeploymentRead', deployment(5), 'This API key is not allowed to access deployment 5'],
  ['role before scope', key('member', [5]), 'DeploymentUpdate', deployment(6), 'This operation requires the admin role'],
  // Account-wide: refused to any key limited to deployments, whatever the permission.
  [
    'scoped admin creates a deployment',
    key('admin', [5]),
    'DeploymentCreate',
    ACCOUNT,
    'This API key is limited to deployments 5 and cannot do this; use a key for every deployment',
  ],
  [
    'scoped admin changes the account',
    key('admin', [5, 6]),
    'AccountManage',
    ACCOUNT,
    'This API key is limited to deployments 5, 6 and cannot do this; use a key for every deployment',
  ],
  ['unscoped admin creates a deployment', key('admin', null), 'DeploymentCreate', ACCOUNT, null],
  ['scoped member reads the account, within its scope', key('member', [5]), 'AccountRead', WITHIN_SCOPE, null],
  ['scoped admin lists deployments, within its scope', key('admin', [5]), 'DeploymentRead', WITHIN_SCOPE, null],
  ['scoped admin renames a user, within its scope', key('admin', [5]), 'AccountManage', WITHIN_SCOPE, null],
  // Within the scope still, a permission that always reaches the whole account is refused.
  [
    'scoped admin manages SCIM tokens',
    key('admin', [5]),
    'ScimTokensManage',
    ACCOUNT,
    'This API key is limited to deployments 5 and cannot do this; use a key for every deployment',
  ],
  [
    'scoped admin changes a role, within its scope',
    key('admin', [5]),
    'UserAccessManage',
    WITHIN_SCOPE,
    'This API key is limited to deployments 5 and cannot do this; use a key for every deployment',
  ],
  [
    'scoped admin changes user access',
    key('admin', []),
    'UserAccessManage',
    ACCOUNT,
    'This API key is limited to no deployment and cannot do this; use a key for every deployment',
  ],
  ['unscoped admin changes user access', key('admin', null), 'UserAccessManage', ACCOUNT, null],
  // Credentials: never wider than the caller.
  ['admin creates an admin key', key('admin', null), 'ApiKeysManage', credential('admin', null), null],
  ['scoped admin creates a key for its deployment', key('admin', [5, 6]), 'ApiKeysManage', credential('member', [6]), null],
  [
    'scoped admin creates an unscoped key',
    key('admin', [5]),
    'ApiKeysManage',
    credential('member', null),
    'This API key is limited to deployments 5 and cannot do this for every deployment; name its deploymentIds',
  ],
  [
    'scoped admin creates a key for other deployments',
    key('admin', [5]),
    'ApiKeysManage',
    credential('admin', [5, 7, 8]),
    'This API key is limited to deployments 5 and cannot do this for deployments 7, 8',
  ],
  ['member creates a key', key('member', null), 'ApiKeysManage', credential('member', null), 'This operation requires the admin role'],
  [
    'member embeds as an admin',
    key('member', null),
    'EmbedSessionsManage',
    credential('admin', null),
    'This operation requires the admin role',
  ],
  // Credentials of no user.
  ['SCIM token provisions', { kind: 'scimToken', accountId: 1, credentialId: 2 }, 'ScimProvision', ACCOUNT, null],
  [
    'SCIM token reads the account',
    { kind: 'scimToken', accountId: 1, credentialId: 2 },
    'AccountRead',
    ACCOUNT,
    'This credential does not grant AccountRead',
  ],
  ['admin key provisions over SCIM', key('admin', null), 'ScimProvision', ACCOUNT, 'This credential does not grant ScimProvision'],
  [
    'data token before issue 14',
    { kind: 'dataToken', accountId: 1, claims: { deploymentId: 5, securityContext: {}, expiresAt: null } },
    'DeploymentRead',
    deployment(5),
    'This credential does not grant DeploymentRead',
  ],
  // Embed tokens: every one reads what is embedded; a creator-mode one also its deployment, for the workspace's operations.
  ['read-only embed token opens dashboards', embed(false), 'EmbedDashboardRead', WITHIN_SCOPE, null],
  [
    'read-only embed token reads its deployment',
    embed(false),
    'DeploymentRead',
    deployment(5),
    'This credential does not grant DeploymentRead',
  ],
  ['creator-mode embed token reads its deployment', embed(true), 'DeploymentRead', deployment(5), null],
  [
    'creator-mode embed token reads another deployment',
    embed(true),
    'DeploymentRead',
    deployment(6),
    'This token is not allowed to access deployment 6',
  ],
  ['creator-mode embed token changes a schema', embed(true), 'SchemaUpdate', deployment(5), 'This credential does not grant SchemaUpdate'],
  [
    'creator-mode embed token reads workbooks by permission',
    embed(true),
    'WorkbookRead',
    deployment(5),
    'This credential does not grant WorkbookRead',
  ],
];

describe('authorize', () => {
  it.each(table)('%s', (_, principal, permission, resource, expected) => {
    const refusal = authorize(principal, permission, resource);
    if (expected === null) {
      expect(refusal).toBeNull();
    } else {
      expect(refusal?.code).toBe('forbidden');
      expect(refusal?.message).toMatch(expected);
    }
  });

  it('every permission an admin holds that a member does not is refused to a member with the same message', () => {
    const { roles } = permissionCatalog();
    for (const permission of roles.admin) {
      const refusal = authorize(key('member', null), permission, ACCOUNT);
      if (roles.member.has(permission)) expect(refusal, permission).toBeNull();
      else expect(refusal?.message, permission).toBe('This operation requires the admin role');
    }
  });

  it('every Plinth action is documented and granted to some credential', () => {
    const { plinthActions, roles, kinds } = permissionCatalog();
    expect(plinthActions.size).toBeGreaterThan(0);
    for (const [action, description] of plinthActions) {
      expect(description.length, action).toBeGreaterThan(20);
      const granted = roles.admin.has(action) || Object.values(kinds).some((grants) => grants.has(action));
      expect(granted, action).toBe(true);
    }
  });

  it('deploymentScope: a key its own, tokens of one deployment that one, the rest every deployment', () => {
    expect(deploymentScope(key('member', [1, 2]))).toEqual([1, 2]);
    expect(deploymentScope(key('admin', null))).toBeNull();
    expect(deploymentScope({ kind: 'scimToken', accountId: 1, credentialId: 2 })).toBeNull();
    expect(deploymentScope({ kind: 'dataToken', accountId: 1, claims: { deploymentId: 4, securityContext: {}, expiresAt: null } })).toEqual(
      [4],
    );
  });
});
