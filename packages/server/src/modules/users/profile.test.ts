import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { describeOnStores } from '../../test-support/server.js';

/** The reference's user fields beyond Plinth's first ones: names, title, state, last login, aliases. */
describeOnStores('users admin: profile fields', (server) => {
  describe('firstName, lastName and title', () => {
    it('are set on create and update, null clears them, and SCIM sees the same names and title', async () => {
      const account = await server().newAccount();
      const created = await account.request({
        method: 'POST',
        url: '/api/v1/users',
        as: account.admin,
        body: { email: 'grace@x.com', firstName: 'Grace', lastName: 'Hopper', title: 'Rear Admiral' },
      });
      expect(created.status, created.text).toBe(201);
      expect(created.body).toMatchObject({ firstName: 'Grace', lastName: 'Hopper', title: 'Rear Admiral', username: 'grace@x.com' });
      const id = created.body.id as number;
      const record = await server().services.users.get(account.id, id);
      expect(record).toMatchObject({ givenName: 'Grace', familyName: 'Hopper', title: 'Rear Admiral' });

      const updated = await account.request({
        method: 'PATCH',
        url: `/api/v1/users/${id}`,
        as: account.admin,
        body: { title: 'Commodore', lastName: null },
      });
      expect(updated.status, updated.text).toBe(200);
      expect(updated.body).toMatchObject({ firstName: 'Grace', lastName: null, title: 'Commodore' });

      const cleared = await account.request({ method: 'PATCH', url: `/api/v1/users/${id}`, as: account.admin, body: { title: null } });
      expect(cleared.body.title).toBeNull();
    });

    it('a title SCIM stored among its attributes is the user title, and a platform change keeps the other attributes', async () => {
      const account = await server().newAccount();
      const user = await server().services.users.create(account.id, {
        email: 'vp@x.com',
        scimAttributes: { title: 'Vice President', nickName: 'Veep' },
      });
      const got = await account.request({ method: 'GET', url: `/api/v1/users/${user.id}`, as: account.member });
      expect(got.body.title).toBe('Vice President');
      await account.request({ method: 'PATCH', url: `/api/v1/users/${user.id}`, as: account.admin, body: { title: 'President' } });
      const row = await server()
        .store.db.selectFrom('app_user')
        .select('scim_attributes')
        .where('id', '=', user.id)
        .executeTakeFirstOrThrow();
      expect(row.scim_attributes).toEqual({ title: 'President', nickName: 'Veep' });
    });

    it.each([
      [{ title: '' }, 'title'],
      [{ title: 'x'.repeat(201) }, 'title'],
      [{ firstName: 42 }, 'firstName'],
      [{ lastName: '' }, 'lastName'],
      [{ jobTitle: 'CEO' }, 'jobTitle'],
    ])('400 for %j, naming %s', async (body, field) => {
      const account = await server().newAccount();
      const response = await account.request({ method: 'PATCH', url: `/api/v1/users/${account.member.id}`, as: account.admin, body });
      expect(response.status).toBe(400);
      expect(response.body.error).toContain(field);
    });
  });

  it('isAdmin follows the role and isDeactivated the active flag', async () => {
    const account = await server().newAccount();
    await account.request({ method: 'PATCH', url: `/api/v1/users/${account.member.id}`, as: account.admin, body: { active: false } });
    const page = await account.request({ method: 'GET', url: '/api/v1/users', as: account.admin });
    const byId = new Map(page.body.items.map((u: { id: number }) => [u.id, u]));
    expect(byId.get(account.admin.id)).toMatchObject({ isAdmin: true, isDeactivated: false, active: true });
    expect(byId.get(account.member.id)).toMatchObject({ isAdmin: false, isDeactivated: true, active: false });
  });

  it("aliases are SCIM's userName and its other addresses, once each; the externalId has its own field", async () => {
    const account = await server().newAccount();
    const user = await server().services.users.create(account.id, {
      email: 'ada@x.com',
      userName: 'ada.lovelace',
      externalId: 'okta-00u1',
      emails: [
        { value: 'ada@x.com', primary: true },
        { value: 'Ada.L@corp.example.com', type: 'work' },
        { value: 'ADA@X.COM', type: 'other' },
      ],
    });
    const got = await account.request({ method: 'GET', url: `/api/v1/users/${user.id}`, as: account.member });
    expect(got.body.externalId).toBe('okta-00u1');
    expect(got.body.username).toBe('ada.lovelace');
    expect(got.body.aliases).toEqual([
      { id: 1, userId: user.id, username: 'ada.lovelace', source: 'scim', createdAt: expect.any(String), updatedAt: expect.any(String) },
      {
        id: 2,
        userId: user.id,
        username: 'Ada.L@corp.example.com',
        source: 'scim',
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      },
    ]);
    const plain = await account.request({ method: 'GET', url: `/api/v1/users/${account.member.id}`, as: account.member });
    expect(plain.body.aliases).toEqual([]);
  });

  describe('lastLogin', () => {
    it('is null until the user logs in, then the time of the login; a refresh is not a login', async () => {
      const account = await server().newAccount();
      const me = () => account.request({ method: 'GET', url: '/api/v1/users/me', as: account.member });
      expect((await me()).body.lastLogin).toBeNull();
      const before = Date.now();
      const tokens = await server().services.login.tokens.issue(account.id, account.member.id, 'test');
      const first = (await me()).body.lastLogin as string;
      expect(Date.parse(first)).toBeGreaterThanOrEqual(before - 1000);

      // Pretend the login was long ago: a refresh leaves it, a new login moves it.
      const past = new Date(Date.now() - 3_600_000);
      await server().store.db.updateTable('app_user').set({ last_login_at: past }).where('id', '=', account.member.id).execute();
      await server().services.login.tokens.refresh(account.id, tokens.refresh_token);
      expect(Date.parse((await me()).body.lastLogin)).toBe(past.getTime());
      await server().services.login.tokens.issue(account.id, account.member.id, 'test');
      expect(Date.parse((await me()).body.lastLogin)).toBeGreaterThan(past.getTime());
    });

    it('is written at most once a minute, and without touching updatedAt or the SCIM version', async () => {
      const account = await server().newAccount();
      const db = server().store.db;
      const row = () =>
        db
          .selectFrom('app_user')
          .select(['last_login_at', 'updated_at', 'version'])
          .where('id', '=', account.member.id)
          .executeTakeFirstOrThrow();
      const start = await row();
      await server().services.users.recordLogin(account.id, account.member.id);
      const first = await row();
      expect(first.last_login_at).not.toBeNull();
      expect(first.version).toBe(start.version);
      expect(first.updated_at.getTime()).toBe(start.updated_at.getTime());
      // 30 seconds ago is recent: a second login within the minute writes nothing.
      await db
        .updateTable('app_user')
        .set({ last_login_at: sql`now() - interval '30 seconds'` })
        .where('id', '=', account.member.id)
        .execute();
      const thirty = (await row()).last_login_at!;
      await server().services.users.recordLogin(account.id, account.member.id);
      expect((await row()).last_login_at!.getTime()).toBe(thirty.getTime());
      await db
        .updateTable('app_user')
        .set({ last_login_at: sql`now() - interval '61 seconds'` })
        .where('id', '=', account.member.id)
        .execute();
      const old = (await row()).last_login_at!;
      await server().services.users.recordLogin(account.id, account.member.id);
      expect((await row()).last_login_at!.getTime()).toBeGreaterThan(old.getTime());
    });

    it("another account's user is never touched", async () => {
      const a = await server().newAccount();
      const b = await server().newAccount();
      await server().services.users.recordLogin(b.id, a.member.id);
      const got = await a.request({ method: 'GET', url: '/api/v1/users/me', as: a.member });
      expect(got.body.lastLogin).toBeNull();
    });
  });
});
