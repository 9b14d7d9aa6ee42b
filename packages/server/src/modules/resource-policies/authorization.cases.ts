import type { OperationCase } from '../../test-support/authorization.js';
import type { TestAccount, TestServer } from '../../test-support/server.js';

const deploymentOf = async (account: TestAccount, server: TestServer) =>
  (await server.services.deployments.create(account.id, { name: 'd' }, 'http://localhost')).id;

/** The resource policies module's operations, for the shared authorisation suite (run by policies.test.ts). */
export const cases: OperationCase[] = [
  // A key limited to another deployment may read the account's policies, but not this deployment's (the service's check).
  {
    operation: 'getPolicies',
    method: 'GET',
    scopedStatus: 403,
    prepare: async (account, server) => ({
      url: `/api/v1/resource-policies?resourceType=Deployment&resourceId=${await deploymentOf(account, server)}`,
    }),
  },
  {
    operation: 'updateUserPolicy',
    method: 'PUT',
    prepare: async (account, server) => ({
      url: '/api/v1/resource-policies/user',
      body: {
        resourceType: 'Deployment',
        resourceId: await deploymentOf(account, server),
        userId: account.member.id,
        action: 'SchemaUpdate',
      },
    }),
  },
  {
    operation: 'updateGroupPolicy',
    method: 'PUT',
    prepare: async (account, server) => {
      const group = await server.services.groups.create(account.id, { name: `g${Date.now()}${Math.random()}` });
      return {
        url: '/api/v1/resource-policies/group',
        body: { resourceType: 'Deployment', resourceId: await deploymentOf(account, server), groupId: group.id, action: 'SchemaRead' },
      };
    },
  },
];
