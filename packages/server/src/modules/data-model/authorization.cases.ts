import { randomBytes } from 'node:crypto';
import type { Principal } from '../../http/principal.js';
import type { OperationCase } from '../../test-support/authorization.js';
import type { TestAccount, TestServer } from '../../test-support/server.js';

const adminKey = (account: TestAccount): Principal => ({
  kind: 'apiKey',
  accountId: account.id,
  credentialId: account.admin.apiKeyId,
  userId: account.admin.id,
  role: 'admin',
  deploymentIds: null,
});

const base = async (account: TestAccount, server: TestServer) => {
  const deployment = await server.services.deployments.create(account.id, { name: 'd' }, 'http://localhost');
  return { id: deployment.id, url: `/build/api/v1/deployments/${deployment.id}` };
};

/**
 * Dev mode is per credential, and the suite calls with the admin's API key and with an access
 * token of the admin: each gets its own session, with `model/a.yml` on its dev branch.
 */
const inDevMode = async (account: TestAccount, server: TestServer) => {
  const at = await base(account, server);
  const principals: Principal[] = [
    {
      kind: 'apiKey',
      accountId: account.id,
      credentialId: account.admin.apiKeyId,
      userId: account.admin.id,
      role: 'admin',
      deploymentIds: null,
    },
    { kind: 'accessToken', accountId: account.id, credentialId: 0, userId: account.admin.id, role: 'admin', deploymentIds: null },
  ];
  for (const principal of principals) {
    await server.services.dataModel.devMode.enter(principal, at.id, 'main');
    await server.services.dataModel.files.put(principal, at.id, { path: 'model/a.yml', content: `a: ${randomBytes(4).toString('hex')}\n` });
  }
  return at;
};

const withBranch = async (account: TestAccount, server: TestServer) => {
  const at = await base(account, server);
  const name = `feature-${randomBytes(4).toString('hex')}`;
  const admin: Principal = {
    kind: 'apiKey',
    accountId: account.id,
    credentialId: account.admin.apiKeyId,
    userId: account.admin.id,
    role: 'admin',
    deploymentIds: null,
  };
  await server.services.dataModel.branches.create(admin, at.id, { name });
  return { ...at, name };
};

const get = (operation: string, path: string): OperationCase => ({
  operation,
  method: 'GET',
  prepare: async (account, server) => ({ url: `${(await base(account, server)).url}${path}` }),
});

/** A new key limited to the deployment has no dev-mode session of its own: past authorisation, the service answers 400. */
const needsOwnDevMode = { inScopeStatus: 400 };

/** The data-model module's operations, for the shared authorisation suite (run by data-model.test.ts). */
export const cases: OperationCase[] = [
  get('listDataModelFiles', '/files'),
  get('getDataModelFileHashes', '/file-hashes'),
  get('getDataModelCommits', '/commits'),
  get('getDataModelBranchDiff', '/diff'),
  get('getDataModelBranches', '/branches'),
  get('getDevMode', '/dev-mode'),
  {
    operation: 'getDataModelFile',
    method: 'GET',
    prepare: async (account, server) => {
      const at = await inDevMode(account, server);
      await server.services.dataModel.devMode.commit(adminKey(account), at.id, { message: 'a' });
      return { url: `${at.url}/files/content?path=model/a.yml&branch=main` };
    },
  },
  {
    operation: 'putDataModelFile',
    ...needsOwnDevMode,
    method: 'PUT',
    prepare: async (account, server) => ({
      url: `${(await inDevMode(account, server)).url}/files/content`,
      body: { path: 'model/b.yml', content: 'b' },
    }),
  },
  {
    operation: 'deleteDataModelFile',
    ...needsOwnDevMode,
    method: 'DELETE',
    prepare: async (account, server) => ({ url: `${(await inDevMode(account, server)).url}/files/content?path=model/a.yml` }),
  },
  {
    operation: 'renameDataModelFile',
    ...needsOwnDevMode,
    method: 'POST',
    prepare: async (account, server) => ({
      url: `${(await inDevMode(account, server)).url}/files/rename`,
      body: { from: 'model/a.yml', to: 'model/c.yml' },
    }),
  },
  {
    operation: 'createDataModelBranch',
    method: 'POST',
    successStatus: 201,
    prepare: async (account, server) => ({
      url: `${(await base(account, server)).url}/branches`,
      body: { name: `b-${randomBytes(4).toString('hex')}` },
    }),
  },
  {
    operation: 'deleteDataModelBranch',
    method: 'DELETE',
    prepare: async (account, server) => {
      const { url, name } = await withBranch(account, server);
      return { url: `${url}/branches/${name}` };
    },
  },
  ...(['enable', 'disable'] as const).map((verb): OperationCase => ({
    operation: `${verb}DataModelBranch`,
    method: 'POST',
    prepare: async (account, server) => {
      const { url, name } = await withBranch(account, server);
      return { url: `${url}/branches/${name}/${verb}` };
    },
  })),
  {
    operation: 'enterDevMode',
    method: 'POST',
    prepare: async (account, server) => ({ url: `${(await base(account, server)).url}/dev-mode`, body: { branch: 'main' } }),
  },
  {
    operation: 'exitDevMode',
    method: 'DELETE',
    prepare: async (account, server) => ({ url: `${(await inDevMode(account, server)).url}/dev-mode` }),
  },
  {
    operation: 'commitDataModel',
    ...needsOwnDevMode,
    method: 'POST',
    prepare: async (account, server) => ({ url: `${(await inDevMode(account, server)).url}/commit`, body: { message: 'edit' } }),
  },
  {
    operation: 'pullDataModel',
    ...needsOwnDevMode,
    method: 'POST',
    prepare: async (account, server) => ({ url: `${(await inDevMode(account, server)).url}/pull`, body: {} }),
  },
  {
    operation: 'mergeDataModelBranch',
    method: 'POST',
    prepare: async (account, server) => {
      const { url, name } = await withBranch(account, server);
      return { url: `${url}/merge`, body: { source: name, target: 'main' } };
    },
  },
  {
    operation: 'mergeDataModelBranchToDefault',
    method: 'POST',
    prepare: async (account, server) => {
      const { url, name } = await withBranch(account, server);
      return { url: `${url}/merge-to-default`, body: { branch: name } };
    },
  },
];
