import { describe, expect, it } from 'vitest';
import { authorizationSuite } from '../../test-support/authorization.js';
import { describeOnStores, type TestAccount } from '../../test-support/server.js';
import { cases } from './authorization.cases.js';

async function createGroup(account: TestAccount, body: Record<string, unknown> = { name: 'Analysts' }) {
  const response = await account.request({ method: 'POST', url: '/api/v1/user-groups', as: account.admin, body });
  expect(response.status, response.text).toBe(201);
  return response.body as { id: number; name: string };
}

const ids = (body: { items: Array<{ id: number }> }) => body.items.map((i) => i.id);

describeOnStores('groups admin', (server) => {
  describe('group CRUD', () => {
    it('creates, reads, lists with userCount, renames and deletes (via /groups/{id})', async () => {
      const account = await server().newAccount();
      const created = await account.request({
        method: 'POST',
        url: '/api/v1/user-groups',
        as: account.admin,
        body: { name: 'Analysts', description: 'Read dashboards' },
      });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        id: expect.any(Number),
        name: 'Analysts',
        description: 'Read dashboards',
        userCount: 0,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      const { id } = created.body;
      await server().services.groups.addMembers(account.id, id, [account.member.id]);
      const got = await account.request({ method: 'GET', url: `/api/v1/user-groups/${id}`, as: account.member });
      expect(got.body).toMatchObject({ id, userCount: 1 });
      const list = await account.request({ method: 'GET', url: '/api/v1/user-groups', as: account.member });
      expect(list.body.items).toEqual([expect.objectContaining({ id, name: 'Analysts', userCount: 1 })]);
      const renamed = await account.request({
        method: 'PATCH',
        url: `/api/v1/user-groups/${id}`,
        as: account.admin,
        body: { name: 'Readers' },
      });
      expect(renamed.body).toMatchObject({ name: 'Readers', description: 'Read dashboards' });

      const deleted = await account.request({ method: 'DELETE', url: `/api/v1/groups/${id}`, as: account.admin });
      // As the reference answers deleteGroup: 200 with a JSON body, not 204.
      expect(deleted.status).toBe(200);
      expect(deleted.body).toEqual({ id, deleted: true });
      expect((await account.request({ method: 'GET', url: `/api/v1/user-groups/${id}`, as: account.admin })).status).toBe(404);
      expect(await server().services.groups.groupsOfUser(account.id, account.member.id)).toEqual([]);
    });

    it('409 for a name taken in the account, ignoring case ("Admins" vs "admins")', async () => {
      const account = await server().newAccount();
      await createGroup(account, { name: 'Admins' });
      const first = await createGroup(account, { name: 'Sales' });
      const again = await account.request({ method: 'POST', url: '/api/v1/user-groups', as: account.admin, body: { name: 'admins' } });
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({ code: 'conflict', error: expect.stringContaining('Admins') });
      const rename = await account.request({
        method: 'PATCH',
        url: `/api/v1/user-groups/${first.id}`,
        as: account.admin,
        body: { name: 'ADMINS' },
      });
      expect(rename.status).toBe(409);
    });

    it.each([
      [{ name: '' }, 'name'],
      [{ name: 'x'.repeat(201) }, 'name'],
      [{ name: 'ok', members: [] }, 'members'],
      [{}, 'name'],
    ])('400 for %j', async (body, field) => {
      const account = await server().newAccount();
      const response = await account.request({ method: 'POST', url: '/api/v1/user-groups', as: account.admin, body });
      expect(response.status).toBe(400);
      expect(response.body.error).toContain(field);
    });
  });

  describe('members', () => {
    it('adds idempotently, lists with a cursor, removes idempotently', async () => {
      const account = await server().newAccount();
      const group = await createGroup(account);
      const add = (userIds: number[]) =>
        account.request({ method: 'POST', url: `/api/v1/user-groups/${group.id}/members`, as: account.admin, body: { userIds } });
      expect((await add([account.member.id, account.admin.id])).status).toBe(204);
      expect((await add([account.member.id])).status).toBe(204);
      const first = await account.request({ method: 'GET', url: `/api/v1/user-groups/${group.id}/members?first=1`, as: account.member });
      expect(first.status).toBe(200);
      expect(ids(first.body)).toEqual([account.admin.id]);
      expect(first.body.items[0]).toMatchObject({ email: account.admin.email, role: 'admin' });
      const rest = await account.request({
        method: 'GET',
        url: `/api/v1/user-groups/${group.id}/members?first=1&after=${first.body.pageInfo.endCursor}`,
        as: account.member,
      });
      expect(ids(rest.body)).toEqual([account.member.id]);

      const remove = () =>
        account.request({ method: 'DELETE', url: `/api/v1/user-groups/${group.id}/members/${account.admin.id}`, as: account.admin });
      expect((await remove()).status).toBe(204);
      expect((await remove()).status).toBe(204);
      const after = await account.request({ method: 'GET', url: `/api/v1/user-groups/${group.id}/members`, as: account.member });
      expect(ids(after.body)).toEqual([account.member.id]);
      const unknownUser = await account.request({
        method: 'DELETE',
        url: `/api/v1/user-groups/${group.id}/members/999999`,
        as: account.admin,
      });
      expect(unknownUser.status).toBe(404);
    });

    it('400 naming unknown and other-account user ids, adding nobody', async () => {
      const account = await server().newAccount();
      const other = await server().newAccount();
      const group = await createGroup(account);
      const response = await account.request({
        method: 'POST',
        url: `/api/v1/user-groups/${group.id}/members`,
        as: account.admin,
        body: { userIds: [account.member.id, other.member.id, 999_999] },
      });
      expect(response.status).toBe(400);
      expect(response.body.error).toContain(String(other.member.id));
      expect(response.body.error).toContain('999999');
      const members = await account.request({ method: 'GET', url: `/api/v1/user-groups/${group.id}/members`, as: account.admin });
      expect(members.body.items).toEqual([]);
      const empty = await account.request({
        method: 'POST',
        url: `/api/v1/user-groups/${group.id}/members`,
        as: account.admin,
        body: { userIds: [] },
      });
      expect(empty.status).toBe(400);
    });
  });

  describe('authorisation', () => {
    authorizationSuite(server, cases);
  });
});
