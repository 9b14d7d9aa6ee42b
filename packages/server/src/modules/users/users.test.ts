import { describe, expect, it } from 'vitest';
import { authorizationSuite } from '../../test-support/authorization.js';
import { describeOnStores, type TestAccount } from '../../test-support/server.js';
import { cases } from './authorization.cases.js';

async function createUser(account: TestAccount, body: Record<string, unknown>) {
  const response = await account.request({ method: 'POST', url: '/api/v1/users', as: account.admin, body });
  expect(response.status, response.text).toBe(201);
  return response.body as { id: number; email: string };
}

describeOnStores('users admin', (server) => {
  describe('createAccountUser', () => {
    it('creates a member by default and returns the user shape', async () => {
      const account = await server().newAccount();
      const response = await account.request({
        method: 'POST',
        url: '/api/v1/users',
        as: account.admin,
        body: { email: 'ada@example.com', displayName: 'Ada' },
      });
      expect(response.status).toBe(201);
      expect(response.body).toEqual({
        id: expect.any(Number),
        email: 'ada@example.com',
        username: 'ada@example.com',
        displayName: 'Ada',
        firstName: null,
        lastName: null,
        title: null,
        externalId: null,
        role: 'member',
        isAdmin: false,
        active: true,
        isDeactivated: false,
        lastLogin: null,
        aliases: [],
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
    });

    it('409 conflict naming the email when it differs only in case (A@x.com vs a@x.com)', async () => {
      const account = await server().newAccount();
      await createUser(account, { email: 'A@x.com' });
      const response = await account.request({ method: 'POST', url: '/api/v1/users', as: account.admin, body: { email: 'a@x.com' } });
      expect(response.status).toBe(409);
      expect(response.body).toMatchObject({ code: 'conflict', error: expect.stringContaining('a@x.com') });
    });

    it.each([
      [{ email: 'not-an-email' }, 'email'],
      [{ email: 'a@x.com', role: 'owner' }, 'role'],
      [{ email: 'a@x.com', active: 'yes' }, 'active'],
      [{ email: 'a@x.com', colour: 'red' }, 'colour'],
      [{ displayName: 'No email' }, 'email'],
    ])('400 for %j, naming %s', async (body, field) => {
      const account = await server().newAccount();
      const response = await account.request({ method: 'POST', url: '/api/v1/users', as: account.admin, body });
      expect(response.status).toBe(400);
      expect(response.body.error).toContain(field);
    });
  });

  describe('reads', () => {
    it('getAccountUser includes the groups; getUsers paginates and filters by email', async () => {
      const account = await server().newAccount();
      const group = await server().services.groups.create(account.id, { name: 'Analysts' });
      await server().services.groups.addMembers(account.id, group.id, [account.member.id]);
      const got = await account.request({ method: 'GET', url: `/api/v1/users/${account.member.id}`, as: account.member });
      expect(got.status).toBe(200);
      expect(got.body).toMatchObject({
        id: account.member.id,
        email: account.member.email,
        role: 'member',
        groups: [{ id: group.id, name: 'Analysts' }],
      });
      expect(got.body).not.toHaveProperty('uuid');

      const page = await account.request({ method: 'GET', url: '/api/v1/users?first=1', as: account.member });
      expect(page.body.items.map((u: { id: number }) => u.id)).toEqual([account.admin.id]);
      expect(page.body.pageInfo.hasNextPage).toBe(true);
      const next = await account.request({
        method: 'GET',
        url: `/api/v1/users?first=1&after=${page.body.pageInfo.endCursor}`,
        as: account.member,
      });
      expect(next.body.items.map((u: { id: number }) => u.id)).toEqual([account.member.id]);
      const filtered = await account.request({
        method: 'GET',
        url: `/api/v1/users?email=${encodeURIComponent(account.member.email.toUpperCase())}`,
        as: account.member,
      });
      expect(filtered.body.items.map((u: { id: number }) => u.id)).toEqual([account.member.id]);
    });

    describe('cursors', () => {
      const cursor = (text: string) => Buffer.from(text).toString('base64url');
      const list = (account: TestAccount, after: string) =>
        account.request({ method: 'GET', url: `/api/v1/users?first=1&after=${after}`, as: account.member });

      it('still accepts an `id:N` cursor issued before cursors named their list', async () => {
        const account = await server().newAccount();
        const next = await list(account, cursor(`id:${account.admin.id}`));
        expect(next.status).toBe(200);
        expect(next.body.items.map((u: { id: number }) => u.id)).toEqual([account.member.id]);
      });

      it.each([
        ['an id out of range', cursor('id:99999999999'), /id is out of range/],
        ['an id out of range in a current cursor', cursor(JSON.stringify(['users', 'id', 'asc', 2 ** 31])), /id is out of range/],
        ['a tampered cursor', cursor('["users","id","asc",1').slice(0, -2), /not a cursor this server issued/],
      ])('400 for %s, saying what is wrong, never a 500', async (_, after, why) => {
        const account = await server().newAccount();
        const response = await list(account, after);
        expect(response.status).toBe(400);
        expect(response.body).toMatchObject({ code: 'bad_request', error: expect.stringMatching(/^Invalid cursor in "after": /) });
        expect(response.body.error).toMatch(why);
      });

      it("400 for another list's cursor, instead of a page of users", async () => {
        const account = await server().newAccount();
        await server().services.groups.create(account.id, { name: 'One' });
        await server().services.groups.create(account.id, { name: 'Two' });
        const groups = await account.request({ method: 'GET', url: '/api/v1/user-groups?first=1', as: account.member });
        expect(groups.body.pageInfo.hasNextPage).toBe(true);
        const response = await list(account, groups.body.pageInfo.endCursor);
        expect(response.status).toBe(400);
        expect(response.body.error).toMatch(/belongs to another list/);
      });
    });

    it('getMe answers for an API key and for an access token', async () => {
      const account = await server().newAccount();
      const byKey = await account.request({ method: 'GET', url: '/api/v1/users/me', as: account.member });
      expect(byKey.status).toBe(200);
      expect(byKey.body).toMatchObject({ id: account.member.id, email: account.member.email, groups: [] });
      const token = await account.accessToken(account.admin);
      const byToken = await account.request({ method: 'GET', url: '/api/v1/users/me', as: `Bearer ${token}` });
      expect(byToken.body).toMatchObject({ id: account.admin.id, role: 'admin' });
    });

    it.each([
      ['an unknown id', '/api/v1/users/999999', 404],
      ['a non-integer id', '/api/v1/users/abc', 400],
    ])('getAccountUser: %s is %i', async (_label, url, status) => {
      const account = await server().newAccount();
      const response = await account.request({ method: 'GET', url, as: account.member });
      expect(response.status).toBe(status);
    });
  });

  describe('updateAccountUser and deleteAccountUser', () => {
    it('updates only the supplied fields; 409 for a taken email', async () => {
      const account = await server().newAccount();
      const user = await createUser(account, { email: 'u@x.com', displayName: 'U' });
      const updated = await account.request({
        method: 'PATCH',
        url: `/api/v1/users/${user.id}`,
        as: account.admin,
        body: { role: 'admin' },
      });
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({ email: 'u@x.com', displayName: 'U', role: 'admin', active: true });
      const taken = await account.request({
        method: 'PATCH',
        url: `/api/v1/users/${user.id}`,
        as: account.admin,
        body: { email: account.member.email.toUpperCase() },
      });
      expect(taken.status).toBe(409);
      expect(taken.body.error).toContain(account.member.email.toUpperCase());
      const empty = await account.request({ method: 'PATCH', url: `/api/v1/users/${user.id}`, as: account.admin, body: {} });
      expect(empty.status).toBe(400);
    });

    it('deactivating a user stops their API keys and access tokens; reactivating restores them', async () => {
      const account = await server().newAccount();
      const token = `Bearer ${await account.accessToken(account.member)}`;
      const me = (as: string | typeof account.member) => account.request({ method: 'GET', url: '/api/v1/users/me', as });
      expect((await me(account.member)).status).toBe(200);
      expect((await me(token)).status).toBe(200);

      const off = await account.request({
        method: 'PATCH',
        url: `/api/v1/users/${account.member.id}`,
        as: account.admin,
        body: { active: false },
      });
      expect(off.body.active).toBe(false);
      for (const as of [account.member, token]) {
        const refused = await me(as);
        expect(refused.status).toBe(401);
        expect(refused.body.error).toMatch(/deactivated/);
      }

      await account.request({ method: 'PATCH', url: `/api/v1/users/${account.member.id}`, as: account.admin, body: { active: true } });
      expect((await me(account.member)).status).toBe(200);
      expect((await me(token)).status).toBe(200);
    });

    it.each([
      ['deactivate', 'PATCH', { active: false }],
      ['demote', 'PATCH', { role: 'member' }],
      ['delete', 'DELETE', undefined],
    ] as const)('409 to %s the last active admin', async (action, method, body) => {
      const account = await server().newAccount();
      const response = await account.request({ method, url: `/api/v1/users/${account.admin.id}`, as: account.admin, body });
      expect(response.status).toBe(409);
      expect(response.body).toMatchObject({ code: 'conflict', error: expect.stringContaining(`Cannot ${action} the last active admin`) });
      const still = await account.request({ method: 'GET', url: '/api/v1/users/me', as: account.admin });
      expect(still.body).toMatchObject({ role: 'admin', active: true });
    });

    it('an admin can step down once another active admin exists', async () => {
      const account = await server().newAccount();
      const second = await account.addUser('admin');
      const response = await account.request({
        method: 'PATCH',
        url: `/api/v1/users/${account.admin.id}`,
        as: second,
        body: { role: 'member' },
      });
      expect(response.status).toBe(200);
      // The demoted admin's key is a member key now.
      const forbidden = await account.request({ method: 'POST', url: '/api/v1/users', as: account.admin, body: { email: 'z@x.com' } });
      expect(forbidden.status).toBe(403);
    });

    it('deletes a user with their memberships; 404 afterwards', async () => {
      const account = await server().newAccount();
      const user = await createUser(account, { email: 'gone@x.com' });
      const group = await server().services.groups.create(account.id, { name: 'g' });
      await server().services.groups.addMembers(account.id, group.id, [user.id]);
      const deleted = await account.request({ method: 'DELETE', url: `/api/v1/users/${user.id}`, as: account.admin });
      expect(deleted.status).toBe(204);
      expect((await account.request({ method: 'GET', url: `/api/v1/users/${user.id}`, as: account.admin })).status).toBe(404);
      expect((await server().services.groups.get(account.id, group.id)).userCount).toBe(0);
    });
  });

  describe('authorisation', () => {
    authorizationSuite(server, cases);
  });
});
