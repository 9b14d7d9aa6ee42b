import { describe, expect, it } from 'vitest';
import { authorizationSuite } from '../../test-support/authorization.js';
import { describeOnStores } from '../../test-support/server.js';
import { cases } from './authorization.cases.js';
import { deploymentOf, storedFolder, storedReport, storedWorkbook } from './test-fixtures.js';

describeOnStores('workbooks', (server) => {
  describe('authorization', () => authorizationSuite(server, cases));

  const setup = async () => {
    const account = await server().newAccount();
    const deploymentId = await deploymentOf(server(), account);
    const base = `/api/v1/deployments/${deploymentId}/workbooks`;
    return { account, deploymentId, base };
  };

  it('create, get, list, update and delete, with the reference shape', async () => {
    const { account, deploymentId, base } = await setup();
    const created = await account.request({
      method: 'POST',
      url: base,
      as: account.member,
      body: { name: '  Sales  ', meta: { color: 'blue' }, calculatedFields: { margin: { sql: 'revenue - cost', type: 'number' } } },
    });
    expect(created.status, created.text).toBe(200);
    expect(created.body).toMatchObject({
      name: 'Sales',
      deploymentId,
      folderId: null,
      type: 'WORKBOOK',
      meta: { color: 'blue' },
      calculatedFields: { margin: { sql: 'revenue - cost', type: 'number' } },
      dashboardDraft: null,
      dashboardPublished: null,
      publishedDashboard: null,
      createdBy: account.member.id,
      userId: account.member.id,
    });
    const id = created.body.id;
    const untitled = await account.request({ method: 'POST', url: base, as: account.member, body: {} });
    expect(untitled.body.name).toBe('Untitled workbook');

    const got = await account.request({ method: 'GET', url: `${base}/${id}`, as: account.member });
    expect(got.body).toEqual(created.body);
    const list = await account.request({ method: 'GET', url: `${base}?first=1`, as: account.member });
    expect(list.body.items.map((w: any) => w.id)).toEqual([id]);
    expect(list.body.data).toEqual(list.body.items);
    expect(list.body.pageInfo.hasNextPage).toBe(true);
    const next = await account.request({ method: 'GET', url: `${base}?first=1&after=${list.body.pageInfo.endCursor}`, as: account.member });
    expect(next.body.items.map((w: any) => w.id)).toEqual([untitled.body.id]);

    const updated = await account.request({
      method: 'PUT',
      url: `${base}/${id}`,
      as: account.member,
      body: { name: 'Revenue', calculatedFields: { ratio: { expression: 'orders.total / orders.count', type: 'number', title: 'Ratio' } } },
    });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body).toMatchObject({ name: 'Revenue', meta: { color: 'blue' }, calculatedFields: { ratio: { title: 'Ratio' } } });
    expect(updated.body.calculatedFields.margin).toBeUndefined();

    const deleted = await account.request({ method: 'DELETE', url: `${base}/${id}`, as: account.member });
    expect(deleted.body).toEqual({ id, deleted: true });
    expect((await account.request({ method: 'GET', url: `${base}/${id}`, as: account.member })).status).toBe(404);
  });

  it.each([
    [{ name: '   ' }, /name: must not be blank/],
    [{ calculatedFields: { '1st': { sql: 'x', type: 'number' } } }, /calculatedFields: the name "1st" is not valid/],
    [
      { calculatedFields: { a: { sql: 'x', expression: 'y', type: 'number' } } },
      /calculatedFields\.a: give exactly one of "sql" and "expression"/,
    ],
    [{ calculatedFields: { a: { type: 'number' } } }, /calculatedFields\.a: give exactly one/],
    [{ calculatedFields: { a: { sql: ' ', type: 'number' } } }, /calculatedFields\.a: sql is blank/],
    [{ calculatedFields: { a: { sql: 'x', type: 'money' } } }, /type/],
    [{ calculatedFields: { a: { sql: 'x', type: 'number', format: 'x' } } }, /format/],
    [{ colour: 'red' }, /colour/],
  ])('400 naming the field: %j', async (body, message) => {
    const { account, base } = await setup();
    const response = await account.request({ method: 'POST', url: base, as: account.member, body });
    expect(response.status, response.text).toBe(400);
    expect(response.body.error).toMatch(message);
  });

  it('content is private to its creator: another member gets 404 and does not see it listed; an admin sees it', async () => {
    const { account, deploymentId, base } = await setup();
    const workbook = await storedWorkbook(server(), account, deploymentId);
    const other = await account.addUser('member');
    expect((await account.request({ method: 'GET', url: `${base}/${workbook.id}`, as: other })).status).toBe(404);
    expect((await account.request({ method: 'DELETE', url: `${base}/${workbook.id}`, as: other })).status).toBe(404);
    expect((await account.request({ method: 'GET', url: base, as: other })).body.items).toEqual([]);
    expect((await account.request({ method: 'GET', url: base, as: account.admin })).body.items).toHaveLength(1);

    // Shared for reading: it reads and lists it, but may not change or delete it (403 naming the permission).
    await server()
      .store.db.insertInto('resource_policy')
      .values({
        account_id: account.id,
        user_id: other.id,
        resource_type: 'Workbook',
        resource_id: workbook.id,
        action: 'WorkbookRead',
      } as never)
      .execute();
    expect((await account.request({ method: 'GET', url: `${base}/${workbook.id}`, as: other })).status).toBe(200);
    expect((await account.request({ method: 'GET', url: base, as: other })).body.items).toHaveLength(1);
    const edit = await account.request({ method: 'PUT', url: `${base}/${workbook.id}`, as: other, body: { name: 'x' } });
    expect(edit.status).toBe(403);
    expect(edit.body.error).toMatch(/WorkbookEdit/);
    const duplicate = await account.request({ method: 'POST', url: `${base}/${workbook.id}/duplicate`, as: other });
    expect(duplicate.status, duplicate.text).toBe(200);
    expect(duplicate.body).toMatchObject({ createdBy: other.id, folderId: null });
  });

  it('folders: creating in or moving into a folder needs FolderEdit on it; folderId filters the list', async () => {
    const { account, deploymentId, base } = await setup();
    const mine = await storedFolder(server(), account, deploymentId, account.member.id, 'Mine');
    const theirs = await storedFolder(server(), account, deploymentId, account.admin.id, 'Theirs');
    const inFolder = await account.request({ method: 'POST', url: base, as: account.member, body: { name: 'A', folderId: mine.id } });
    expect(inFolder.status, inFolder.text).toBe(200);
    expect(inFolder.body.folderId).toBe(mine.id);
    const refused = await account.request({ method: 'POST', url: base, as: account.member, body: { name: 'B', folderId: theirs.id } });
    expect(refused.status).toBe(404);
    const unknown = await account.request({ method: 'POST', url: base, as: account.member, body: { name: 'B', folderId: 999_999 } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatch(/Folder 999999 not found/);
    const root = await account.request({ method: 'POST', url: base, as: account.member, body: { name: 'C' } });

    const listed = await account.request({ method: 'GET', url: `${base}?folderId=${mine.id}`, as: account.member });
    expect(listed.body.items.map((w: any) => w.id)).toEqual([inFolder.body.id]);
    const atRoot = await account.request({ method: 'GET', url: `${base}?folderId=0`, as: account.member });
    expect(atRoot.body.items.map((w: any) => w.id)).toEqual([root.body.id]);

    const moved = await account.request({ method: 'PUT', url: `${base}/${root.body.id}`, as: account.member, body: { folderId: mine.id } });
    expect(moved.body.folderId).toBe(mine.id);
    const back = await account.request({ method: 'PUT', url: `${base}/${root.body.id}`, as: account.member, body: { folderId: null } });
    expect(back.body.folderId).toBeNull();
    const into = await account.request({
      method: 'PUT',
      url: `${base}/${root.body.id}`,
      as: account.member,
      body: { folderId: theirs.id },
    });
    expect(into.status).toBe(404);
  });

  it('duplicate copies meta, calculated fields, reports and the draft (charts re-pointed), not the published dashboard', async () => {
    const { account, deploymentId, base } = await setup();
    const source = await storedWorkbook(server(), account, deploymentId, { name: 'Board' });
    const report = await storedReport(server(), source);
    const draft = { widgets: [{ id: 'c', type: 'CHART', position: { x: 0, y: 0, w: 4, h: 4 }, config: { reportId: report.id } }] };
    const saved = await account.request({
      method: 'PUT',
      url: `${base}/${source.id}/dashboard`,
      as: account.member,
      body: { dashboardDraft: draft },
    });
    expect(saved.status, saved.text).toBe(200);
    await account.request({
      method: 'PUT',
      url: `${base}/${source.id}`,
      as: account.member,
      body: { calculatedFields: { m: { sql: '1', type: 'number' } } },
    });
    const published = await account.request({
      method: 'POST',
      url: `${base}/${source.id}/publish`,
      as: account.member,
      body: { workbookId: source.id },
    });
    expect(published.status, published.text).toBe(200);

    const copy = await account.request({ method: 'POST', url: `${base}/${source.id}/duplicate`, as: account.member });
    expect(copy.status, copy.text).toBe(200);
    expect(copy.body).toMatchObject({
      name: 'Board (copy)',
      calculatedFields: { m: { sql: '1' } },
      publishedDashboard: null,
      dashboardPublished: null,
    });
    const copiedReports = await server().store.db.selectFrom('report').selectAll().where('workbook_id', '=', copy.body.id).execute();
    expect(copiedReports).toHaveLength(1);
    expect(copiedReports[0]!.id).not.toBe(report.id);
    expect(copy.body.dashboardDraft.widgets[0].config.reportId).toBe(copiedReports[0]!.id);
    const again = await account.request({ method: 'POST', url: `${base}/${source.id}/duplicate`, as: account.member });
    expect(again.body.name).toBe('Board (copy 2)');

    // Deleting the source takes its reports and dashboard with it; the copies stay.
    await account.request({ method: 'DELETE', url: `${base}/${source.id}`, as: account.member });
    expect(await server().store.db.selectFrom('report').select('id').where('id', '=', report.id).execute()).toEqual([]);
    expect(await server().store.db.selectFrom('dashboard').select('id').where('workbook_id', '=', source.id).execute()).toEqual([]);
    expect((await account.request({ method: 'GET', url: `${base}/${copy.body.id}`, as: account.member })).status).toBe(200);
  });

  it("another deployment's workbook, and a workbook of an unknown deployment, are 404", async () => {
    const { account, deploymentId } = await setup();
    const other = await deploymentOf(server(), account);
    const workbook = await storedWorkbook(server(), account, deploymentId);
    expect(
      (await account.request({ method: 'GET', url: `/api/v1/deployments/${other}/workbooks/${workbook.id}`, as: account.admin })).status,
    ).toBe(404);
    const unknown = await account.request({ method: 'GET', url: '/api/v1/deployments/999999/workbooks', as: account.admin });
    expect(unknown.status).toBe(404);
  });
});
