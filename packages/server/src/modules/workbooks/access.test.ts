import { expect, it } from 'vitest';
import { describeOnStores, type TestAccount, type TestServer } from '../../test-support/server.js';
import { deploymentOf, storedFolder, storedWorkbook } from './test-fixtures.js';

/** Who may do what to workbooks, through folders and credentials (CONTRACT: content access and create rules). */
describeOnStores('workbook access', (server) => {
  const grant = (s: TestServer, account: TestAccount, userId: number, resourceType: string, resourceId: number, action: string) =>
    s.store.db
      .insertInto('resource_policy')
      .values({ account_id: account.id, user_id: userId, resource_type: resourceType, resource_id: resourceId, action })
      .execute();

  it('a folder policy reaches the workbooks in it: FolderRead reads, FolderEdit also creates, moves in and edits', async () => {
    const account = await server().newAccount();
    const deploymentId = await deploymentOf(server(), account);
    const base = `/api/v1/deployments/${deploymentId}/workbooks`;
    const folder = await storedFolder(server(), account, deploymentId, account.admin.id);
    const inside = await storedWorkbook(server(), account, deploymentId, { ownerId: account.admin.id, folderId: folder.id });
    const user = await account.addUser('member');

    await grant(server(), account, user.id, 'Folder', folder.id, 'FolderRead');
    expect((await account.request({ method: 'GET', url: `${base}/${inside.id}`, as: user })).status).toBe(200);
    expect((await account.request({ method: 'GET', url: `${base}?folderId=${folder.id}`, as: user })).body.items).toHaveLength(1);
    const create = await account.request({ method: 'POST', url: base, as: user, body: { name: 'Mine', folderId: folder.id } });
    expect(create.status).toBe(403);
    expect(create.body.error).toMatch(/FolderEdit/);
    const mine = await account.request({ method: 'POST', url: base, as: user, body: { name: 'Mine' } });
    const move = await account.request({ method: 'PUT', url: `${base}/${mine.body.id}`, as: user, body: { folderId: folder.id } });
    expect(move.status).toBe(403);
    expect((await account.request({ method: 'PUT', url: `${base}/${inside.id}`, as: user, body: { name: 'x' } })).status).toBe(403);

    await server().store.db.updateTable('resource_policy').set({ action: 'FolderEdit' }).where('user_id', '=', user.id).execute();
    expect((await account.request({ method: 'POST', url: base, as: user, body: { name: 'In', folderId: folder.id } })).status).toBe(200);
    expect((await account.request({ method: 'PUT', url: `${base}/${mine.body.id}`, as: user, body: { folderId: folder.id } })).status).toBe(
      200,
    );
    expect((await account.request({ method: 'PUT', url: `${base}/${inside.id}`, as: user, body: { name: 'x' } })).status).toBe(200);
    // Deleting needs Manage, which FolderEdit does not give.
    const remove = await account.request({ method: 'DELETE', url: `${base}/${inside.id}`, as: user });
    expect(remove.status).toBe(403);
    expect(remove.body.error).toMatch(/WorkbookManage/);
  });

  it('an access token acts as its user; a key with its own permissions needs DeploymentRead to create at the root', async () => {
    const account = await server().newAccount();
    const deploymentId = await deploymentOf(server(), account);
    const base = `/api/v1/deployments/${deploymentId}/workbooks`;
    const token = `Bearer ${await account.accessToken(account.member)}`;
    const created = await account.request({ method: 'POST', url: base, as: token, body: { name: 'T' } });
    expect(created.status, created.text).toBe(200);
    expect(created.body.createdBy).toBe(account.member.id);

    const limited = await server().services.credentials.createApiKey(account.id, account.admin.id, {
      name: 'schema only',
      role: 'member',
      permissions: ['SchemaRead'],
      deploymentIds: [deploymentId],
    });
    const refused = await account.request({ method: 'POST', url: base, as: `Api-Key ${limited.key}`, body: { name: 'K' } });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatch(/DeploymentRead/);
  });
});
