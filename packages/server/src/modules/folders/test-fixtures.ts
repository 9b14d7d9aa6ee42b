import type { TestResponse, TestServer, TestUser } from '../../test-support/server.js';

/**
 * A deployment with helpers for the folders and workspace tests: requests as a user, content rows
 * written straight to the store (reports and workbooks have their own modules), and policies.
 */
export async function contentSetup(server: TestServer) {
  const account = await server.newAccount();
  const deploymentId = (await server.services.deployments.create(account.id, { name: 'd' }, 'http://localhost')).id;
  const db = server.store.db;
  const base = `/api/v1/deployments/${deploymentId}`;
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown, as: TestUser | string = account.member) =>
    account.request({ method, url: `${base}${url}`, body, as });
  const folder = async (name: string, parentId: number | null = null, as: TestUser = account.member): Promise<number> => {
    const response: TestResponse = await call('POST', '/folders', { name, parentId }, as);
    if (response.status !== 201) throw new Error(`createFolder ${name}: ${response.status} ${response.text}`);
    return response.body.id;
  };
  const workbook = async (name: string, folderId: number | null, createdBy: number = account.member.id) =>
    (
      await db
        .insertInto('workbook')
        .values({ account_id: account.id, deployment_id: deploymentId, folder_id: folderId, name, created_by: createdBy })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const report = async (name: string, folderId: number | null, createdBy: number = account.member.id, workbookId: number | null = null) =>
    (
      await db
        .insertInto('report')
        .values({
          account_id: account.id,
          deployment_id: deploymentId,
          folder_id: folderId,
          workbook_id: workbookId,
          name,
          public_id: `r${Math.random().toString(36).slice(2, 13)}`,
          created_by: createdBy,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  /** A group holding `action` on a folder, with these users in it. */
  const share = async (folderId: number, action: string, users: TestUser[]) => {
    const group = await server.services.groups.create(account.id, { name: `g${Math.random()}` });
    await server.services.groups.addMembers(
      account.id,
      group.id,
      users.map((u) => u.id),
    );
    await db
      .insertInto('resource_policy')
      .values({ account_id: account.id, group_id: group.id, user_id: null, resource_type: 'Folder', resource_id: folderId, action })
      .execute();
    return group.id;
  };
  return { account, deploymentId, db, base, call, folder, workbook, report, share };
}
