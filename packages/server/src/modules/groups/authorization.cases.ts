import type { OperationCase } from '../../test-support/authorization.js';
import type { TestAccount, TestServer } from '../../test-support/server.js';

const aGroup = (account: TestAccount, server: TestServer) =>
  server.services.groups.create(account.id, { name: `g-${Math.random().toString(36).slice(2)}` });
const groupUrl = async (account: TestAccount, server: TestServer) => ({ url: `/api/v1/user-groups/${(await aGroup(account, server)).id}` });

/** The groups module's operations, for the shared authorisation suite (run by groups.test.ts). */
export const cases: OperationCase[] = [
  {
    operation: 'createUserGroup',
    method: 'POST',
    successStatus: 201,
    targetsResource: false,
    prepare: async () => ({ url: '/api/v1/user-groups', body: { name: `g-${Math.random().toString(36).slice(2)}` } }),
  },
  { operation: 'listGroups', method: 'GET', targetsResource: false, prepare: async () => ({ url: '/api/v1/user-groups' }) },
  { operation: 'getUserGroup', method: 'GET', prepare: groupUrl },
  {
    operation: 'updateUserGroup',
    method: 'PATCH',
    prepare: async (account, server) => ({ ...(await groupUrl(account, server)), body: { description: 'changed' } }),
  },
  {
    operation: 'deleteGroup',
    method: 'DELETE',
    successStatus: 200,
    prepare: async (account, server) => ({ url: `/api/v1/groups/${(await aGroup(account, server)).id}` }),
  },
  {
    operation: 'addGroupMembers',
    method: 'POST',
    successStatus: 204,
    prepare: async (account, server) => ({
      url: `${(await groupUrl(account, server)).url}/members`,
      body: { userIds: [account.member.id] },
    }),
  },
  {
    operation: 'listGroupMembers',
    method: 'GET',
    prepare: async (account, server) => ({ url: `${(await groupUrl(account, server)).url}/members` }),
  },
  {
    operation: 'removeGroupMember',
    method: 'DELETE',
    successStatus: 204,
    prepare: async (account, server) => {
      const group = await aGroup(account, server);
      await server.services.groups.addMembers(account.id, group.id, [account.member.id]);
      return { url: `/api/v1/user-groups/${group.id}/members/${account.member.id}` };
    },
  },
];
