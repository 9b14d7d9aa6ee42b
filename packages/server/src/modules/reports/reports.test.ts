import { describe, expect, it } from 'vitest';
import { authorizationSuite } from '../../test-support/authorization.js';
import { describeOnStores, type TestAccount, type TestServer, type TestUser } from '../../test-support/server.js';
import { cases } from './authorization.cases.js';

const QUERY = '{"measures":["orders.count"]}';

async function setup(server: TestServer) {
  const account = await server.newAccount();
  const d = (await server.services.deployments.create(account.id, { name: 'd' }, 'http://localhost')).id;
  const base = `/api/v1/deployments/${d}`;
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, as: TestUser = account.member, body?: unknown) =>
    account.request({ method, url: `${base}${url}`, as, body });
  const create = async (body: Record<string, unknown> = {}, as: TestUser = account.member) => {
    const response = await call('POST', '/reports', as, { name: 'Orders', jsonQuery: QUERY, ...body });
    expect(response.status, response.text).toBe(200);
    return response.body;
  };
  return { account, d, base, call, create };
}

/** Workspace rows written directly: the folders and workbooks modules serve their own APIs. */
async function folder(server: TestServer, account: TestAccount, d: number, owner: TestUser, name = `f${Math.random()}`) {
  const row = await server.store.db
    .insertInto('folder')
    .values({ account_id: account.id, deployment_id: d, name, created_by: owner.id })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function workbook(server: TestServer, account: TestAccount, d: number, owner: TestUser) {
  const row = await server.store.db
    .insertInto('workbook')
    .values({ account_id: account.id, deployment_id: d, name: 'w', created_by: owner.id })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** One action per user and resource, as resource policies keep them: a grant replaces the one before. */
async function grant(server: TestServer, account: TestAccount, user: TestUser, resourceType: string, resourceId: number, action: string) {
  const db = server.store.db;
  await db
    .deleteFrom('resource_policy')
    .where('user_id', '=', user.id)
    .where('resource_type', '=', resourceType)
    .where('resource_id', '=', resourceId)
    .execute();
  await db
    .insertInto('resource_policy')
    .values({ account_id: account.id, user_id: user.id, group_id: null, resource_type: resourceType, resource_id: resourceId, action })
    .execute();
}

describeOnStores('reports', (server) => {
  describe('create, get, update, delete', () => {
    it('keeps a saved query with its fields, owner and version; deletes it', async () => {
      const { account, d, call, create } = await setup(server());
      const report = await create({
        title: 'Orders by status',
        description: 'All orders',
        source: 'PLAYGROUND',
        pivotItems: { rows: ['orders.status'], columns: [], measures: ['orders.count'], filters: [] },
        meta: { chart: 'bar' },
      });
      expect(report).toMatchObject({
        deploymentId: d,
        type: 'REPORT',
        name: 'Orders',
        title: 'Orders by status',
        jsonQuery: QUERY,
        sqlQuery: null,
        source: 'PLAYGROUND',
        meta: { chart: 'bar' },
        pivotItems: { rows: ['orders.status'], columns: [], measures: ['orders.count'], filters: [] },
        version: 1,
        userId: account.member.id,
        user: { id: account.member.id, email: account.member.email },
        refreshedBy: null,
        refreshedByUser: null,
        refreshError: null,
        snapshot: null,
      });
      expect(report.publicId).toMatch(/^[0-9A-Za-z]{12}$/);

      const updated = await call('PUT', `/reports/${report.id}`, account.member, { title: 'Renamed', meta: null });
      expect(updated.status, updated.text).toBe(200);
      expect(updated.body).toMatchObject({ title: 'Renamed', meta: null, name: 'Orders', version: 2, description: 'All orders' });
      expect((await call('GET', `/reports/${report.id}`)).body.title).toBe('Renamed');

      const deleted = await call('DELETE', `/reports/${report.id}`);
      expect([deleted.status, deleted.body]).toEqual([200, { id: report.id, deleted: true }]);
      expect((await call('GET', `/reports/${report.id}`)).status).toBe(404);
    });

    it('a name defaults to the title; a publicId given is kept and a taken one is 409', async () => {
      const { call, create } = await setup(server());
      const untitled = await create({ name: undefined, title: 'From title' });
      expect(untitled.name).toBe('From title');
      const publicId = `R${Math.random().toString(36).slice(2, 13).padEnd(11, 'x')}`.replace(/[^0-9A-Za-z]/g, 'z');
      expect((await create({ publicId })).publicId).toBe(publicId);
      const taken = await call('POST', '/reports', undefined, { name: 'Again', publicId });
      expect([taken.status, taken.body.error]).toEqual([409, expect.stringMatching(new RegExp(`publicId ${publicId} is taken`))]);
    });

    it('sqlQuery is kept instead of jsonQuery', async () => {
      const { create } = await setup(server());
      const report = await create({ jsonQuery: undefined, sqlQuery: 'SELECT status FROM orders' });
      expect([report.jsonQuery, report.sqlQuery]).toEqual([null, 'SELECT status FROM orders']);
    });
  });

  describe('validation', () => {
    it.each([
      [{ jsonQuery: '{"measures": [' }, /jsonQuery is not valid JSON/],
      [{ jsonQuery: '42' }, /jsonQuery must be a JSON object/],
      [{ jsonQuery: QUERY, sqlQuery: 'SELECT 1' }, /jsonQuery or sqlQuery, not both/],
      [{ sqlQuery: ' ' }, /sqlQuery must not be empty/],
      [{ name: '  ' }, /name must not be empty/],
      [{ publicId: 'short' }, /publicId/],
      [{ publicId: 'abc-def-ghij' }, /publicId/],
      [{ source: 'NOTEBOOK' }, /source/],
      [{ pivotItems: { rows: [] } }, /pivotItems/],
      [{ folderId: 'x' }, /folderId/],
      [{ colour: 'red' }, /colour/],
      [{ meta: { chartType: 'donut' } }, /meta.chartType: "donut" is not a chart type; use one of line, bar, area, pie, table, number, kpi/],
      [{ meta: { chartType: 3 } }, /meta.chartType: 3 is not a chart type/],
    ])('create %j → 400', async (body, message) => {
      const { call } = await setup(server());
      const response = await call('POST', '/reports', undefined, { name: 'r', ...body });
      expect(response.status, response.text).toBe(400);
      expect(response.body.error).toMatch(message);
    });

    it.each(['line', 'bar', 'area', 'pie', 'table', 'number', 'kpi'])('meta.chartType %s is kept, on create and update', async (chartType) => {
      const { call, create } = await setup(server());
      const { id, meta } = await create({ meta: { chartType, stacked: true } });
      expect(meta).toEqual({ chartType, stacked: true });
      const updated = await call('PUT', `/reports/${id}`, undefined, { meta: { chartType } });
      expect([updated.status, updated.body.meta]).toEqual([200, { chartType }]);
      const refused = await call('PUT', `/reports/${id}`, undefined, { meta: { chartType: 'radar' } });
      expect([refused.status, refused.body.error]).toEqual([400, expect.stringMatching(/meta.chartType: "radar"/)]);
    });

    it('update: null name, both queries, unknown fields are 400', async () => {
      const { call, create } = await setup(server());
      const { id } = await create();
      for (const [body, message] of [
        [{ name: null }, /name cannot be null/],
        [{ sqlQuery: 'SELECT 1' }, /not both: set the other one to null/],
        [{ jsonQuery: '[1' }, /jsonQuery is not valid JSON/],
        [{ publicId: 'abcdefghijkl' }, /publicId/],
      ] as const) {
        const response = await call('PUT', `/reports/${id}`, undefined, body);
        expect([response.status, response.body.error], JSON.stringify(body)).toEqual([400, expect.stringMatching(message)]);
      }
      const switched = await call('PUT', `/reports/${id}`, undefined, { jsonQuery: null, sqlQuery: 'SELECT status FROM orders' });
      expect(switched.status, switched.text).toBe(200);
    });

    it('a folder or workbook of another deployment is 404; paging both ways at once is 400', async () => {
      const { account, call } = await setup(server());
      const other = (await server().services.deployments.create(account.id, { name: 'o' }, 'http://localhost')).id;
      const f = await folder(server(), account, other, account.member);
      const w = await workbook(server(), account, other, account.member);
      expect((await call('POST', '/reports', undefined, { name: 'r', folderId: f })).status).toBe(404);
      expect((await call('POST', '/reports', undefined, { name: 'r', workbookId: w })).status).toBe(404);
      const both = await call('GET', '/reports?limit=2&first=2');
      expect([both.status, both.body.error]).toEqual([400, expect.stringMatching(/not both/)]);
      for (const [query, field] of [
        ['sortBy=name', /sortBy/],
        ['sortDirection=up', /sortDirection/],
        ['page=0', /page/],
        ['limit=5000', /limit/],
        ['workbookId=x', /workbookId/],
        ['colour=red', /colour/],
      ] as const) {
        const response = await call('GET', `/reports?${query}`);
        expect([response.status, response.body.error], query).toEqual([400, expect.stringMatching(field)]);
      }
    });
  });

  describe('lists', () => {
    it('pages by cursor and by number, sorts, and filters by workbook', async () => {
      const { account, d, call, create } = await setup(server());
      const w = await workbook(server(), account, d, account.member);
      const ids: number[] = [];
      for (let i = 0; i < 5; i += 1) ids.push((await create({ name: `r${i}`, workbookId: i % 2 ? w : null })).id);

      const seen: number[] = [];
      let after = '';
      for (;;) {
        const page = await call('GET', `/reports?first=2${after ? `&after=${after}` : ''}`);
        expect(page.status, page.text).toBe(200);
        seen.push(...page.body.data.map((r: { id: number }) => r.id));
        if (!page.body.pageInfo.hasNextPage) break;
        after = page.body.pageInfo.endCursor;
      }
      expect(seen).toEqual([...ids].reverse());

      const asc = await call('GET', '/reports?sortBy=createdAt&sortDirection=ASC&limit=2&page=2');
      expect(asc.body.data.map((r: { id: number }) => r.id)).toEqual(ids.slice(2, 4));
      expect(asc.body.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
      expect(asc.body.data[0].snapshot).toBeUndefined();

      await call('PUT', `/reports/${ids[0]}`, undefined, { title: 'touched' });
      const updated = await call('GET', '/reports?sortBy=updatedAt&first=1');
      expect(updated.body.data[0].id).toBe(ids[0]);
      const wrongCursor = await call('GET', `/reports?sortBy=updatedAt&after=${after}`);
      expect([wrongCursor.status, wrongCursor.body.error]).toEqual([400, expect.stringMatching(/another ordering/)]);

      const inWorkbook = await call('GET', `/reports?workbookId=${w}`);
      expect(inWorkbook.body.data.map((r: { id: number }) => r.id).sort()).toEqual([ids[1], ids[3]].sort());
    });

    it('report folders: the folders holding reports the caller may read, with their counts', async () => {
      const { account, d, call, create } = await setup(server());
      const a = await folder(server(), account, d, account.member, 'Alpha');
      const b = await folder(server(), account, d, account.member, 'beta');
      await folder(server(), account, d, account.member, 'empty');
      await create({ folderId: a });
      await create({ folderId: a });
      await create({ folderId: b });
      await create();
      const listed = await call('GET', '/report-folders');
      expect(listed.body).toEqual({
        data: [
          { id: a, name: 'Alpha', createdBy: account.member.id, reportsCount: 2 },
          { id: b, name: 'beta', createdBy: account.member.id, reportsCount: 1 },
        ],
      });
      const stranger = await account.addUser('member');
      expect((await call('GET', '/report-folders', stranger)).body).toEqual({ data: [] });
    });
  });

  describe('access', () => {
    it('private to its creator until shared; a policy on the report or a folder above it shares it', async () => {
      const { account, d, call, create } = await setup(server());
      const other = await account.addUser('member');
      const mine = await create();
      expect((await call('GET', `/reports/${mine.id}`, other)).status).toBe(404);
      expect((await call('GET', '/reports', other)).body.data).toEqual([]);
      expect((await call('GET', `/reports/${mine.id}`, account.admin)).status).toBe(200);

      await grant(server(), account, other, 'Report', mine.id, 'ReportRead');
      expect((await call('GET', `/reports/${mine.id}`, other)).status).toBe(200);
      expect((await call('GET', '/reports', other)).body.data.map((r: { id: number }) => r.id)).toEqual([mine.id]);
      const edit = await call('PUT', `/reports/${mine.id}`, other, { title: 'x' });
      expect([edit.status, edit.body.error]).toEqual([403, expect.stringMatching(/ReportEdit on report/)]);
      await grant(server(), account, other, 'Report', mine.id, 'ReportEdit');
      expect((await call('PUT', `/reports/${mine.id}`, other, { title: 'x' })).status).toBe(200);
      const del = await call('DELETE', `/reports/${mine.id}`, other);
      expect([del.status, del.body.error]).toEqual([403, expect.stringMatching(/ReportManage/)]);

      const f = await folder(server(), account, d, account.member);
      const inFolder = await create({ folderId: f });
      await grant(server(), account, other, 'Folder', f, 'FolderRead');
      expect((await call('GET', `/reports/${inFolder.id}`, other)).status).toBe(200);
      const intoFolder = await call('POST', '/reports', other, { name: 'mine too', folderId: f });
      expect([intoFolder.status, intoFolder.body.error]).toEqual([403, expect.stringMatching(/FolderEdit on folder/)]);
      const move = await call('PUT', `/reports/${mine.id}`, other, { folderId: f });
      expect(move.status).toBe(403);
    });

    it("a group's policy on a folder shares the reports below it, in lists and report folders", async () => {
      const { account, d, call, create } = await setup(server());
      const reader = await account.addUser('member');
      const parent = await folder(server(), account, d, account.member, 'Parent');
      const child = await server()
        .store.db.insertInto('folder')
        .values({ account_id: account.id, deployment_id: d, parent_id: parent, name: 'Child', created_by: account.member.id })
        .returning('id')
        .executeTakeFirstOrThrow();
      const deep = await create({ folderId: child.id });
      await create();
      const group = await server().services.groups.create(account.id, { name: `readers${Math.random()}` });
      await server().services.groups.setUserGroups(account.id, reader.id, [group.id]);
      await server()
        .store.db.insertInto('resource_policy')
        .values({ account_id: account.id, user_id: null, group_id: group.id, resource_type: 'Folder', resource_id: parent, action: 'FolderRead' })
        .execute();
      expect((await call('GET', '/reports', reader)).body.data.map((r: { id: number }) => r.id)).toEqual([deep.id]);
      expect((await call('GET', '/report-folders', reader)).body.data).toEqual([
        { id: child.id, name: 'Child', createdBy: account.member.id, reportsCount: 1 },
      ]);
      const refresh = await call('PUT', `/reports/${deep.id}/refresh`, reader);
      expect([refresh.status, refresh.body.error]).toEqual([403, expect.stringMatching(/ReportEdit/)]);
    });

    it('a folder or workbook the caller cannot read is 404; one it may edit takes the report', async () => {
      const { account, d, call } = await setup(server());
      const other = await account.addUser('member');
      const f = await folder(server(), account, d, account.admin);
      const w = await workbook(server(), account, d, account.admin);
      expect((await call('POST', '/reports', other, { name: 'r', folderId: f })).status).toBe(404);
      expect((await call('POST', '/reports', other, { name: 'r', workbookId: w })).status).toBe(404);
      await grant(server(), account, other, 'Workbook', w, 'WorkbookEdit');
      const created = await call('POST', '/reports', other, { name: 'r', workbookId: w });
      expect(created.status, created.text).toBe(200);
      expect(created.body.workbookId).toBe(w);
    });

    it("another deployment's or account's report is 404", async () => {
      const { account, call, create } = await setup(server());
      const report = await create();
      const otherDeployment = (await server().services.deployments.create(account.id, { name: 'o' }, 'http://localhost')).id;
      const elsewhere = await account.request({
        method: 'GET',
        url: `/api/v1/deployments/${otherDeployment}/reports/${report.id}`,
        as: account.admin,
      });
      expect(elsewhere.status).toBe(404);
      const stranger = await server().newAccount();
      const foreign = await stranger.request({ method: 'GET', url: `/api/v1/deployments/${report.deploymentId}/reports`, as: stranger.admin });
      expect(foreign.status).toBe(404);
      expect((await call('GET', '/reports/2147483000')).status).toBe(404);
    });
  });

  describe('authorization', () => {
    authorizationSuite(server, cases);
  });
});
