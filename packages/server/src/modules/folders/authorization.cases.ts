import type { OperationCase } from '../../test-support/authorization.js';
import type { TestAccount, TestServer } from '../../test-support/server.js';

/** A deployment of the account and a folder its member created (so a member may act on it). */
export async function memberFolder(account: TestAccount, server: TestServer, name = 'f') {
  const deploymentId = (await server.services.deployments.create(account.id, { name: 'd' }, 'http://localhost')).id;
  const folder = await server.store.db
    .insertInto('folder')
    .values({ account_id: account.id, deployment_id: deploymentId, name, created_by: account.member.id })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { deploymentId, folderId: folder.id, base: `/api/v1/deployments/${deploymentId}/folders` };
}

/** The folders module's operations, for the shared authorisation suite (run by folders.test.ts). */
export const cases: OperationCase[] = [
  {
    operation: 'getFolders',
    method: 'GET',
    prepare: async (account, server) => ({ url: (await memberFolder(account, server)).base }),
  },
  {
    operation: 'createFolder',
    method: 'POST',
    successStatus: 201,
    prepare: async (account, server) => {
      const { base, folderId } = await memberFolder(account, server);
      return { url: base, body: { name: `n${Math.random()}`, parentId: folderId } };
    },
  },
  {
    operation: 'updateFolder',
    method: 'PUT',
    prepare: async (account, server) => {
      const { base, folderId } = await memberFolder(account, server);
      return { url: `${base}/${folderId}`, body: { name: `renamed ${Math.random()}`, position: 3 } };
    },
  },
  {
    operation: 'deleteFolder',
    method: 'DELETE',
    successStatus: 204,
    prepare: async (account, server) => {
      const { base, folderId } = await memberFolder(account, server);
      return { url: `${base}/${folderId}` };
    },
  },
  {
    operation: 'getFolderAncestors',
    method: 'GET',
    prepare: async (account, server) => {
      const { base, folderId } = await memberFolder(account, server);
      return { url: `${base}/${folderId}/ancestors` };
    },
  },
];
