import { describe, expect, it } from 'vitest';
import { authorizationSuite } from '../../test-support/authorization.js';
import { describeOnStores } from '../../test-support/server.js';
import { contentSetup } from '../folders/test-fixtures.js';
import { cases } from './authorization.cases.js';

type Item = { type: string; id: number; name: string };
const names = (body: { items: Item[] }) => body.items.map((i) => `${i.type}:${i.name}`);

describeOnStores('workspace', (server) => {
  describe('my workspace', () => {
    it('lists what the caller created, one level at a time, folders first; filters by types (repeated or comma) and searches every folder', async () => {
      const { account, call, folder, workbook, report } = await contentSetup(server());
      const sales = await folder('Sales');
      await folder('archive');
      await workbook('Revenue', null);
      await report('churn', null);
      await report('Sales pipeline', sales);
      await workbook('Quarterly sales', sales);
      await report('not mine', null, account.admin.id);
      const top = await call('GET', '/workspace');
      expect(top.status, top.text).toBe(200);
      expect(names(top.body)).toEqual(['FOLDER:archive', 'FOLDER:Sales', 'REPORT:churn', 'WORKBOOK:Revenue']);
      expect(top.body.items[0]).toMatchObject({ type: 'FOLDER', parentId: null, folderId: null, position: 1 });
      expect(top.body.items[3]).toMatchObject({ type: 'WORKBOOK', meta: {}, createdBy: account.member.id });
      const inside = await call('GET', `/workspace?folderId=${sales}&orderByDirection=DESC`);
      expect(names(inside.body)).toEqual(['REPORT:Sales pipeline', 'WORKBOOK:Quarterly sales']);
      expect(inside.body.items[0]).toMatchObject({ folderId: sales, workbookId: null, title: null, publicId: expect.any(String) });
      expect(names((await call('GET', '/workspace?types=FOLDER&types=REPORT')).body)).toEqual([
        'FOLDER:archive',
        'FOLDER:Sales',
        'REPORT:churn',
      ]);
      expect(names((await call('GET', '/workspace?types=WORKBOOK,REPORT')).body)).toEqual(['REPORT:churn', 'WORKBOOK:Revenue']);
      expect(names((await call('GET', '/workspace?search=SALES')).body)).toEqual([
        'FOLDER:Sales',
        'WORKBOOK:Quarterly sales',
        'REPORT:Sales pipeline',
      ]);
      const bad = await call('GET', '/workspace?types=FOLDER,DASHBOARD');
      expect(bad.status).toBe(400);
      expect(bad.body.error).toMatch(/types/);
      expect((await call('GET', '/workspace?orderByField=size')).body.error).toMatch(/orderByField/);
    });

    it('orders by a field in either direction and pages stably while items are added', async () => {
      const { call, folder, report, workbook } = await contentSetup(server());
      await folder('f1');
      for (const name of ['b', 'd', 'f']) await report(name, null);
      await workbook('c', null);
      const first = await call('GET', '/workspace?first=3&orderByField=name');
      expect(names(first.body)).toEqual(['FOLDER:f1', 'REPORT:b', 'WORKBOOK:c']);
      // One sorting before the cursor, one after: the next page has the later one, repeats none.
      await report('a', null);
      await workbook('e', null);
      const next = await call('GET', `/workspace?first=10&orderByField=name&after=${first.body.pageInfo.endCursor}`);
      expect(names(next.body)).toEqual(['REPORT:d', 'WORKBOOK:e', 'REPORT:f']);
      expect(next.body.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
      const wrong = await call('GET', `/workspace?orderByField=created_at&after=${first.body.pageInfo.endCursor}`);
      expect([wrong.status, wrong.body.error]).toEqual([
        400,
        'Invalid cursor in "after": it belongs to another ordering of this list; use the endCursor of the previous page',
      ]);
      const newest = await call('GET', '/workspace?types=REPORT&orderByField=created_at&orderByDirection=DESC&first=2');
      expect(names(newest.body)).toEqual(['REPORT:a', 'REPORT:f']);
      const older = await call(
        'GET',
        `/workspace?types=REPORT&orderByField=created_at&orderByDirection=DESC&after=${newest.body.pageInfo.endCursor}`,
      );
      expect(names(older.body)).toEqual(['REPORT:d', 'REPORT:b']);
    });
  });

  describe('shared workspace', () => {
    it('is private by default; a group policy FolderRead shows the folder and its contents there, not in my workspace', async () => {
      const { account, call, folder, report, workbook, share } = await contentSetup(server());
      const team = await folder('team');
      const inner = await folder('inner', team);
      await report('kpi', team);
      await workbook('private wb', null);
      const colleague = await account.addUser('member');
      expect((await call('GET', '/shared-workspace', undefined, colleague)).body.items).toEqual([]);
      expect((await call('GET', `/shared-workspace?folderId=${team}`, undefined, colleague)).status).toBe(404);
      await share(team, 'FolderRead', [colleague]);
      expect(names((await call('GET', '/shared-workspace', undefined, colleague)).body)).toEqual(['FOLDER:team']);
      expect(names((await call('GET', `/shared-workspace?folderId=${team}`, undefined, colleague)).body)).toEqual([
        'FOLDER:inner',
        'REPORT:kpi',
      ]);
      expect((await call('GET', '/workspace', undefined, colleague)).body.items).toEqual([]);
      // Shared below the top: the shared folder is the colleague's top, its parent stays hidden.
      const other = await account.addUser('member');
      await share(inner, 'FolderRead', [other]);
      expect(names((await call('GET', '/shared-workspace', undefined, other)).body)).toEqual(['FOLDER:inner']);
      // An admin's shared workspace is everything others created; the owner's own items are not "shared".
      expect(names((await call('GET', '/shared-workspace', undefined, account.admin)).body)).toEqual([
        'FOLDER:team',
        'WORKBOOK:private wb',
      ]);
      expect((await call('GET', '/shared-workspace')).body.items).toEqual([]);
    });

    it("FolderEdit lets a colleague create inside; what they create there is in their workspace and the owner's shared one", async () => {
      const { account, call, folder, share } = await contentSetup(server());
      const team = await folder('team');
      const colleague = await account.addUser('member');
      await share(team, 'FolderEdit', [colleague]);
      await folder('theirs', team, colleague);
      expect(names((await call('GET', `/workspace?folderId=${team}`, undefined, colleague)).body)).toEqual(['FOLDER:theirs']);
      expect(names((await call('GET', `/shared-workspace?folderId=${team}`)).body)).toEqual(['FOLDER:theirs']);
    });
  });

  describe('move', () => {
    it('moves folders, workbooks and reports: Edit on the item, FolderEdit on the target; never a folder into itself or below', async () => {
      const { account, call, folder, workbook, report, share } = await contentSetup(server());
      const a = await folder('a');
      const b = await folder('b', a);
      const wb = await workbook('wb', null);
      const rep = await report('rep', a);
      const moved = await call('POST', '/workspace/move', { type: 'WORKBOOK', id: wb, folderId: b });
      expect(moved.status, moved.text).toBe(200);
      expect(moved.body).toMatchObject({ type: 'WORKBOOK', id: wb, folderId: b, updatedBy: account.member.id });
      expect((await call('POST', '/workspace/move', { type: 'REPORT', id: rep, folderId: null })).body).toMatchObject({
        type: 'REPORT',
        folderId: null,
      });
      const cycle = await call('POST', '/workspace/move', { type: 'FOLDER', id: a, folderId: b });
      expect([cycle.status, cycle.body.error]).toEqual([
        400,
        `Folder ${a} cannot move into folder ${b}: folder ${b} is inside folder ${a}`,
      ]);
      expect((await call('POST', '/workspace/move', { type: 'FOLDER', id: b })).body).toMatchObject({ type: 'FOLDER', parentId: null });
      await folder('b', a);
      const clash = await call('POST', '/workspace/move', { type: 'FOLDER', id: b, folderId: a });
      expect([clash.status, clash.body.error]).toEqual([409, `A folder named "b" already exists in folder ${a}`]);
      expect((await call('POST', '/workspace/move', { type: 'REPORT', id: 2147483000, folderId: null })).status).toBe(404);
      expect((await call('POST', '/workspace/move', { type: 'SHEET', id: rep })).status).toBe(400);

      // A reader of the folder may not move what is in it, nor move their own item into it.
      const reader = await account.addUser('member');
      await share(a, 'FolderRead', [reader]);
      const inside = await report('inside', a);
      const refused = await call('POST', '/workspace/move', { type: 'REPORT', id: inside, folderId: null }, reader);
      expect([refused.status, refused.body.error]).toEqual([403, `This credential does not grant ReportEdit on report ${inside}`]);
      const theirs = await report('theirs', null, reader.id);
      const into = await call('POST', '/workspace/move', { type: 'REPORT', id: theirs, folderId: a }, reader);
      expect([into.status, into.body.error]).toEqual([403, `This credential does not grant FolderEdit on folder ${a}`]);
      // Into a folder it may not even read: as if it did not exist.
      const hidden = await folder('hidden');
      expect((await call('POST', '/workspace/move', { type: 'REPORT', id: theirs, folderId: hidden }, reader)).status).toBe(404);
    });
  });

  describe('shared authorisation suite', () => {
    authorizationSuite(server, cases);
  });
});
