import type { OperationCase } from '../../test-support/authorization.js';
import type { TestAccount, TestServer } from '../../test-support/server.js';
import { contentIn } from './content.fixtures.js';

const deploymentOf = async (account: TestAccount, server: TestServer) =>
  (await server.services.deployments.create(account.id, { name: 'd' }, 'http://localhost')).id;

/** Content of the account's member in a fresh deployment: the member, as its creator, manages it. */
const membersContent = async (account: TestAccount, server: TestServer) =>
  contentIn(server, account.id, await deploymentOf(account, server));

/**
 * The resource policies module's operations, for the shared authorisation suite (run by
 * policies.test.ts). Changing policies is declared with DeploymentRead (a creator shares its own
 * content) and the service demands PoliciesManage on Global and Deployment (policies.test.ts
 * checks that): so the suite's cases change content policies, and a key limited to another
 * deployment finds no such item (404).
 */
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
    scopedStatus: 404,
    prepare: async (account, server) => {
      const content = await membersContent(account, server);
      const report = await content.report(account.member.id, await content.folder(account.member.id));
      return {
        url: '/api/v1/resource-policies/user',
        body: { resourceType: 'Report', resourceId: report, userId: account.admin.id, action: 'ReportEdit' },
      };
    },
  },
  {
    operation: 'updateGroupPolicy',
    method: 'PUT',
    scopedStatus: 404,
    prepare: async (account, server) => {
      const content = await membersContent(account, server);
      const group = await server.services.groups.create(account.id, { name: `g${Date.now()}${Math.random()}` });
      return {
        url: '/api/v1/resource-policies/group',
        body: { resourceType: 'Folder', resourceId: await content.folder(account.member.id), groupId: group.id, action: 'WorkbookEdit' },
      };
    },
  },
];

/**
 * More content resources, run by content-policies.test.ts through the same suite (the coverage
 * test wants each operation once in `cases`).
 */
export const contentCases: OperationCase[] = [
  {
    operation: 'getPolicies',
    method: 'GET',
    scopedStatus: 404,
    prepare: async (account, server) => {
      const content = await membersContent(account, server);
      return { url: `/api/v1/resource-policies?resourceType=Report&resourceId=${await content.report(account.member.id)}` };
    },
  },
  {
    operation: 'getPolicies',
    method: 'GET',
    scopedStatus: 404,
    prepare: async (account, server) => {
      const content = await membersContent(account, server);
      const workbook = await content.workbook(account.member.id, await content.folder(account.member.id));
      return { url: `/api/v1/resource-policies?resourceType=Dashboard&resourceId=${await content.dashboard(workbook, account.member.id)}` };
    },
  },
  {
    operation: 'updateGroupPolicy',
    method: 'PUT',
    scopedStatus: 404,
    prepare: async (account, server) => {
      const content = await membersContent(account, server);
      const group = await server.services.groups.create(account.id, { name: `g${Date.now()}${Math.random()}` });
      return {
        url: '/api/v1/resource-policies/group',
        body: { resourceType: 'Workbook', resourceId: await content.workbook(account.member.id), groupId: group.id, action: null },
      };
    },
  },
];
