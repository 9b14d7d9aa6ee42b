import type { OperationCase } from '../../test-support/authorization.js';
import { memberFolder } from '../folders/authorization.cases.js';

/** The workspace module's operations, for the shared authorisation suite (run by workspace.test.ts). */
export const cases: OperationCase[] = [
  {
    operation: 'workspaceObjects',
    method: 'GET',
    prepare: async (account, server) => ({ url: `/api/v1/deployments/${(await memberFolder(account, server)).deploymentId}/workspace` }),
  },
  {
    operation: 'sharedWorkspaceObjects',
    method: 'GET',
    prepare: async (account, server) => ({
      url: `/api/v1/deployments/${(await memberFolder(account, server)).deploymentId}/shared-workspace`,
    }),
  },
  {
    operation: 'moveWorkspaceObject',
    method: 'POST',
    prepare: async (account, server) => {
      const { deploymentId, folderId } = await memberFolder(account, server);
      const workbook = await server.store.db
        .insertInto('workbook')
        .values({ account_id: account.id, deployment_id: deploymentId, name: 'w', created_by: account.member.id })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { url: `/api/v1/deployments/${deploymentId}/workspace/move`, body: { type: 'WORKBOOK', id: workbook.id, folderId } };
    },
  },
];
