import { describe, expect, it } from 'vitest';
import { authorizationSuite } from '../../test-support/authorization.js';
import { describeOnStores } from '../../test-support/server.js';
import { cases } from './authorization.cases.js';
import { contentSetup } from './test-fixtures.js';

describeOnStores('folders', (server) => {
  describe('behaviour', () => {
    it('creates, lists one level by position then id, pages stably while folders are added, and keeps the deprecated fields', async () => {
      const { call, folder } = await contentSetup(server());
      const b = await folder('B');
      const a = (await call('POST', '/folders', { name: '  A  ', position: -1 })).body;
      expect(a).toMatchObject({ name: 'A', position: -1, parentId: null, type: 'FOLDER', createdBy: expect.any(Number) });
      const c = await folder('C'); // after its siblings: position 1
      await folder('inside', b);
      const first = await call('GET', '/folders?first=2');
      expect(first.status, first.text).toBe(200);
      expect(first.body.items.map((f: { id: number }) => f.id)).toEqual([a.id, b]);
      expect(first.body.data).toEqual(first.body.items);
      expect(first.body.count).toBe(3);
      expect(first.body.pageInfo.hasNextPage).toBe(true);
      // Inserted before the cursor: not on the next page; after it: on it. Nothing repeats.
      await call('POST', '/folders', { name: 'early', position: -5 });
      await call('POST', '/folders', { name: 'late', position: 9 });
      const next = await call('GET', `/folders?first=10&after=${first.body.pageInfo.endCursor}`);
      expect(next.body.items.map((f: { name: string }) => f.name)).toEqual(['C', 'late']);
      expect(next.body.items[0].id).toBe(c);
      const children = await call('GET', `/folders?parentId=${b}`);
      expect(children.body.items.map((f: { name: string }) => f.name)).toEqual(['inside']);
      expect((await call('GET', '/folders?parentId=null')).body.count).toBe(5);
      expect((await call('GET', '/folders?after=bogus')).status).toBe(400);
    });

    it('names are unique among siblings ignoring case (409 naming it), checked on create, rename and move', async () => {
      const { call, folder } = await contentSetup(server());
      const sales = await folder('Sales');
      const other = await folder('Other');
      const clash = await call('POST', '/folders', { name: 'SALES' });
      expect([clash.status, clash.body.error]).toEqual([409, 'A folder named "SALES" already exists at the root of the workspace']);
      const inOther = await folder('sales', other);
      const renamed = await call('PUT', `/folders/${other}`, { name: 'sales ' });
      expect([renamed.status, renamed.body.error]).toEqual([409, 'A folder named "sales" already exists at the root of the workspace']);
      const moved = await call('PUT', `/folders/${inOther}`, { parentId: null });
      expect(moved.status).toBe(409);
      expect(moved.body.error).toMatch(/"sales"/);
      expect((await call('PUT', `/folders/${sales}`, { name: 'sales' })).status).toBe(200);
    });

    it.each([
      [{ name: '   ' }, /name is blank/],
      [{ name: 'x'.repeat(256) }, /name/],
      [{}, /name/],
      [{ name: 'x', colour: 'red' }, /unknown property "colour"/],
      [{ name: 'x', parentId: 'a' }, /parentId/],
    ])('createFolder %j → 400', async (body, message) => {
      const { call } = await contentSetup(server());
      const response = await call('POST', '/folders', body);
      expect(response.status, response.text).toBe(400);
      expect(response.body.error).toMatch(message);
    });

    it('moves with parentId, never into itself or a folder inside it (400 naming both), and renames and reorders', async () => {
      const { call, folder } = await contentSetup(server());
      const top = await folder('top');
      const mid = await folder('mid', top);
      const leaf = await folder('leaf', mid);
      const cycle = await call('PUT', `/folders/${top}`, { parentId: leaf });
      expect([cycle.status, cycle.body.error]).toEqual([
        400,
        `Folder ${top} cannot move into folder ${leaf}: folder ${leaf} is inside folder ${top}`,
      ]);
      const self = await call('PUT', `/folders/${mid}`, { parentId: mid });
      expect([self.status, self.body.error]).toEqual([400, `Folder ${mid} cannot move into itself`]);
      expect((await call('PUT', `/folders/${top}`, { parentId: 2147483000 })).status).toBe(404);
      const moved = await call('PUT', `/folders/${leaf}`, { parentId: null, name: 'Leaf', position: 7 });
      expect(moved.body).toMatchObject({ id: leaf, parentId: null, name: 'Leaf', position: 7 });
      expect((await call('PUT', `/folders/${top}`, { parentId: leaf })).status).toBe(200);
      expect((await call('GET', `/folders/${mid}/ancestors`)).body.map((f: { id: number }) => f.id)).toEqual([leaf, top, mid]);
    });

    it('two moves at once never make a cycle: one wins, the other is refused', async () => {
      const { call, folder } = await contentSetup(server());
      const a = await folder('a');
      const b = await folder('b');
      const [ab, ba] = await Promise.all([call('PUT', `/folders/${a}`, { parentId: b }), call('PUT', `/folders/${b}`, { parentId: a })]);
      expect([ab.status, ba.status].sort()).toEqual([200, 400]);
    });

    it('ancestors run from the root down to the folder itself', async () => {
      const { call, folder } = await contentSetup(server());
      const root = await folder('Root');
      const sales = await folder('Sales', root);
      const q1 = await folder('Q1', sales);
      const response = await call('GET', `/folders/${q1}/ancestors`);
      expect(response.status).toBe(200);
      expect(response.body.map((f: { name: string }) => f.name)).toEqual(['Root', 'Sales', 'Q1']);
      expect((await call('GET', `/folders/${root}/ancestors`)).body).toHaveLength(1);
    });

    it('deleting a non-empty folder is refused (409 with what it holds) unless deleteContents=true, which takes everything in one go', async () => {
      const { account, call, folder, workbook, report, db, deploymentId } = await contentSetup(server());
      const top = await folder('top');
      const sub = await folder('sub', top);
      const wb = await workbook('wb', top);
      await report('in workbook', null, account.member.id, wb);
      await report('deep', sub);
      await db
        .insertInto('dashboard')
        .values({ account_id: account.id, deployment_id: deploymentId, workbook_id: wb, public_id: `p${Math.random()}` })
        .execute();
      const refused = await call('DELETE', `/folders/${top}`);
      expect(refused.status).toBe(409);
      expect(refused.body.error).toBe(
        `Folder ${top} is not empty: it holds 2 items (1 folder, 1 workbook); move or delete them first, or pass deleteContents=true to delete the folder with everything in it`,
      );
      expect((await call('DELETE', `/folders/${sub}?deleteContents=false`)).status).toBe(409);
      expect((await call('DELETE', `/folders/${top}?deleteContents=true`)).status).toBe(204);
      const left = await Promise.all(
        (['folder', 'workbook', 'report', 'dashboard'] as const).map(
          async (table) => (await db.selectFrom(table).select('id').where('deployment_id', '=', deploymentId).execute()).length,
        ),
      );
      expect(left).toEqual([0, 0, 0, 0]);
      expect((await call('DELETE', `/folders/${top}`)).status).toBe(404);
      const empty = await folder('empty');
      expect((await call('DELETE', `/folders/${empty}`)).status).toBe(204);
    });
  });

  describe('access', () => {
    it('a folder is private to its creator: another member neither lists nor reaches it; an admin does', async () => {
      const { account, call, folder } = await contentSetup(server());
      const mine = await folder('mine');
      const other = await account.addUser('member');
      expect((await call('GET', '/folders', undefined, other)).body).toMatchObject({ items: [], count: 0 });
      for (const [method, url, body] of [
        ['GET', `/folders/${mine}/ancestors`],
        ['GET', `/folders?parentId=${mine}`],
        ['PUT', `/folders/${mine}`, { name: 'x' }],
        ['DELETE', `/folders/${mine}`],
        ['POST', '/folders', { name: 'x', parentId: mine }],
      ] as const) {
        const response = await call(method, url, body, other);
        expect(response.status, `${method} ${url}`).toBe(404);
      }
      expect((await call('GET', '/folders', undefined, account.admin)).body.items.map((f: { id: number }) => f.id)).toEqual([mine]);
      expect((await call('PUT', `/folders/${mine}`, { name: 'by admin' }, account.admin)).status).toBe(200);
    });

    it('FolderRead shared with a group reads the folder and below, FolderEdit lets them create inside, Manage stays with the creator', async () => {
      const { account, call, folder, share } = await contentSetup(server());
      const team = await folder('team');
      const below = await folder('below', team);
      const reader = await account.addUser('member');
      await share(team, 'FolderRead', [reader]);
      expect((await call('GET', '/folders', undefined, reader)).body.items.map((f: { id: number }) => f.id)).toEqual([team]);
      expect((await call('GET', `/folders/${below}/ancestors`, undefined, reader)).status).toBe(200);
      const refused = await call('POST', '/folders', { name: 'x', parentId: team }, reader);
      expect([refused.status, refused.body.error]).toEqual([403, `This credential does not grant FolderEdit on folder ${team}`]);
      const editor = await account.addUser('member');
      await share(team, 'FolderEdit', [editor]);
      expect((await call('POST', '/folders', { name: 'x', parentId: team }, editor)).status).toBe(201);
      expect((await call('PUT', `/folders/${below}`, { name: 'renamed' }, editor)).status).toBe(200);
      expect((await call('DELETE', `/folders/${below}`, undefined, editor)).status).toBe(403);
      // Created at the root by the editor: theirs alone.
      const own = await folder('own', null, editor);
      expect((await call('GET', `/folders/${own}/ancestors`, undefined, reader)).status).toBe(404);
    });

    it("another account's deployment or folder is 404", async () => {
      const mine = await contentSetup(server());
      const theirs = await contentSetup(server());
      const folderId = await theirs.folder('secret');
      const asMine = (method: 'GET' | 'PUT', url: string, body?: unknown) =>
        mine.account.request({ method, url, body, as: mine.account.admin });
      expect((await asMine('GET', `${theirs.base}/folders`)).status).toBe(404);
      expect((await asMine('PUT', `${mine.base}/folders/${folderId}`, { name: 'x' })).status).toBe(404);
      expect((await mine.call('POST', '/folders', { name: 'x', parentId: folderId }, mine.account.admin)).status).toBe(404);
    });
  });

  describe('shared authorisation suite', () => {
    authorizationSuite(server, cases);
  });
});
