import { beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT, authorize, WITHIN_SCOPE, type Resource } from './authorize.js';
import { implied, permissionCatalog, POLICY_ACTIONS, REFERENCE_ACTIONS, type Permission } from './permissions.js';
import type { AccessTokenPrincipal, ApiKeyPrincipal, Grants, Principal } from './principal.js';
import { grantsOfKey, grantsOfPolicies } from '../modules/credentials/grants.js';
import { loadModules } from '../modules/index.js';

// Plinth's own actions, and who holds them, are declared by the modules.
beforeAll(() => loadModules());

const grants = (byDeployment: Record<number, string[]>, everywhere: string[] = []): Grants => ({
  everywhere: implied(everywhere),
  byDeployment: new Map(Object.entries(byDeployment).map(([id, actions]) => [Number(id), implied(actions)])),
});
/** A key of its own permissions on deployments 5 (and 6 with less). */
const gateKey: ApiKeyPrincipal = {
  kind: 'apiKey',
  accountId: 1,
  credentialId: 9,
  userId: 3,
  role: 'member',
  deploymentIds: [5, 6],
  permissions: grants({ 5: ['SchemaUpdate', 'SchemaUpdateDevBranches', 'DeploymentRead', 'ApiKeysManage'], 6: ['SchemaRead'] }),
};
const memberToken = (policies: Grants | null): AccessTokenPrincipal => ({
  kind: 'accessToken',
  accountId: 1,
  credentialId: 2,
  userId: 3,
  role: 'member',
  deploymentIds: null,
  policies,
});
const deployment = (id: number): Resource => ({ type: 'deployment', id });
const keyFor = (permissions: string[], deploymentIds: number[] | null): Resource => ({
  type: 'credential',
  role: 'member',
  deploymentIds,
  permissions,
});

const table: Array<[string, Principal, Permission, Resource, string | RegExp | null]> = [
  ['a key of permissions on its deployment', gateKey, 'SchemaUpdate', deployment(5), null],
  ['what a permission implies', gateKey, 'SchemaRead', deployment(5), null],
  [
    'a permission it lacks there',
    gateKey,
    'DeploymentUpdate',
    deployment(5),
    'This credential does not grant DeploymentUpdate on deployment 5',
  ],
  ['one it holds only elsewhere', gateKey, 'SchemaUpdate', deployment(6), 'This credential does not grant SchemaUpdate on deployment 6'],
  ['a deployment outside it', gateKey, 'SchemaRead', deployment(7), 'This credential does not grant SchemaRead on deployment 7'],
  ['on the account, what it holds on some deployment', gateKey, 'DeploymentRead', WITHIN_SCOPE, null],
  [
    'nothing account-wide, even what it holds',
    gateKey,
    'DeploymentRead',
    ACCOUNT,
    'This API key is limited to deployments 5, 6 and cannot do this; use a key for every deployment',
  ],
  ['on the account, nothing of a role', gateKey, 'AccountRead', ACCOUNT, 'This credential does not grant AccountRead'],
  ['mint a narrower key', gateKey, 'ApiKeysManage', keyFor(['SchemaRead'], [5]), null],
  [
    'mint a key with more',
    gateKey,
    'ApiKeysManage',
    keyFor(['DeploymentUpdate'], [5]),
    'This credential does not grant DeploymentUpdate on deployment 5 and cannot do this that does',
  ],
  ['mint an umbrella', gateKey, 'ApiKeysManage', keyFor(['DeploymentsManage'], [5]), 'does not grant DeploymentCreate on deployment 5'],
  ['mint for another deployment', gateKey, 'ApiKeysManage', keyFor(['SchemaRead'], [5, 7]), 'does not grant SchemaRead on deployment 7'],
  [
    'mint a key of a role',
    gateKey,
    'ApiKeysManage',
    { type: 'credential', role: 'member', deploymentIds: [5] },
    'holds only its own permissions',
  ],
  // Access tokens: role plus policies.
  ['a member without policies', memberToken(null), 'SchemaUpdate', deployment(5), 'This operation requires the admin role'],
  ['a deployment policy', memberToken(grants({ 5: ['SchemaUpdate'] })), 'SchemaUpdate', deployment(5), null],
  [
    'a deployment policy elsewhere',
    memberToken(grants({ 5: ['SchemaUpdate'] })),
    'SchemaUpdate',
    deployment(6),
    'This operation requires the admin role or the SchemaUpdate permission on deployment 6',
  ],
  ['a Global policy', memberToken(grants({}, ['DeploymentsManage'])), 'DeploymentUpdate', deployment(9), null],
  [
    'a Global All is not account administration',
    memberToken(grants({}, ['All'])),
    'PoliciesManage',
    ACCOUNT,
    'This operation requires the admin role',
  ],
  [
    'a deployment policy grants nothing on the account',
    memberToken(grants({ 5: ['All'] })),
    'DeploymentCreate',
    ACCOUNT,
    /admin role or the DeploymentCreate permission$/ as never,
  ],
];

describe('permissions per deployment', () => {
  it.each(table)('%s', (_, principal, permission, resource, expected) => {
    const refusal = authorize(principal, permission, resource);
    if (expected === null) expect(refusal).toBeNull();
    else expect(refusal?.message).toMatch(expected);
  });

  it('the implication table: All is every reference action, umbrellas are never required themselves', () => {
    expect([...implied(['All'])].sort()).toEqual([...REFERENCE_ACTIONS].sort());
    expect([...implied(['DeploymentsManage'])].sort()).toEqual([
      'DeploymentCreate',
      'DeploymentDelete',
      'DeploymentRead',
      'DeploymentUpdate',
    ]);
    expect([...implied(['SchemaUpdate'])].sort()).toEqual(['SchemaRead', 'SchemaUpdate']);
    expect([...implied(['ReportManage'])].sort()).toEqual(['ReportEdit', 'ReportManage', 'ReportRead']);
    for (const action of POLICY_ACTIONS) expect(permissionCatalog().keys).toContain(action);
  });

  it('policies as loaded: Global everywhere, Deployment on its own; none is null', () => {
    expect(grantsOfPolicies(null)).toBeNull();
    const loaded = grantsOfPolicies(['Global:0:SchemaRead', 'Deployment:5:DeploymentUpdate'])!;
    expect([...loaded.everywhere]).toEqual(['SchemaRead']);
    expect([...loaded.byDeployment.get(5)!].sort()).toEqual(['DeploymentRead', 'DeploymentUpdate']);
  });

  it("a key's permissions are cut to what its user holds on each deployment", () => {
    const user = grantsOfPolicies(['Deployment:5:SchemaUpdate']);
    const key = grantsOfKey(['SchemaUpdate', 'DeploymentRead'], [5, 6], 'member', user);
    expect([...key.byDeployment.get(5)!].sort()).toEqual(['DeploymentRead', 'SchemaRead', 'SchemaUpdate']);
    expect([...key.byDeployment.get(6)!].sort()).toEqual(['DeploymentRead', 'SchemaRead']);
    expect([...grantsOfKey(['DeploymentUpdate'], [5], 'admin', null).byDeployment.get(5)!].sort()).toEqual([
      'DeploymentRead',
      'DeploymentUpdate',
    ]);
  });
});
