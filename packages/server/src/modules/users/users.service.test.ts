import { describe, expect, it } from 'vitest';
import { ApiError } from '../../http/errors.js';
import { describeOnStores } from '../../test-support/server.js';
import { transaction } from '../../store/transaction.js';

/** Resolves to the ApiError a promise rejects with, so tests can check its code and message. */
async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describeOnStores('users service', (server) => {
  const users = () => server().services.users;

  it('creates a member by default, active, and finds it by email case-insensitively', async () => {
    const account = await server().newAccount();
    const created = await users().create(account.id, { email: 'Ada@Example.com', displayName: 'Ada' });
    expect(created).toMatchObject({ email: 'Ada@Example.com', displayName: 'Ada', role: 'member', active: true, version: 1 });
    expect(created.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect((await users().findByEmail(account.id, 'ada@example.COM'))?.id).toBe(created.id);
    expect((await users().findByUuid(account.id, created.uuid))?.id).toBe(created.id);
    expect(await users().findByUuid(account.id, 'not-a-uuid')).toBeUndefined();
    expect(await users().get(account.id, created.id)).toEqual(created);
  });

  it('email is unique per account case-insensitively (A@x.com vs a@x.com), but not across accounts', async () => {
    const account = await server().newAccount();
    const other = await server().newAccount();
    await users().create(account.id, { email: 'A@x.com' });
    const error = await failure(users().create(account.id, { email: 'a@x.com' }));
    expect(error.status).toBe(409);
    expect(error.code).toBe('conflict');
    expect(error.message).toContain('a@x.com');
    await expect(users().create(other.id, { email: 'a@x.com' })).resolves.toMatchObject({ email: 'a@x.com' });

    const second = await users().create(account.id, { email: 'b@x.com' });
    const renamed = await failure(users().update(account.id, second.id, { email: 'A@X.COM' }));
    expect(renamed.status).toBe(409);
    expect(renamed.message).toContain('A@X.COM');
    // Changing only the case of one's own address is no conflict.
    await expect(users().update(account.id, second.id, { email: 'B@x.com' })).resolves.toMatchObject({ email: 'B@x.com' });
  });

  it.each([
    ['plain', 'no-at-sign', false],
    ['no domain dot', 'a@localhost', false],
    ['space inside', 'a b@x.com', false],
    ['two ats', 'a@b@x.com', false],
    ['empty', '', false],
    ['too long', `${'a'.repeat(250)}@x.com`, false],
    ['simple', 'a@x.com', true],
    ['plus and dots', 'first.last+tag@sub.example.co.uk', true],
  ])('email syntax: %s (%j) valid=%s', async (_label, email, ok) => {
    const account = await server().newAccount();
    const result = users().create(account.id, { email });
    if (ok) await expect(result).resolves.toMatchObject({ email });
    else expect((await failure(result)).status).toBe(400);
  });

  it('updates fields, bumps version, and clears a display name with null', async () => {
    const account = await server().newAccount();
    const user = await users().create(account.id, { email: 'u@x.com', displayName: 'U', externalId: 'ext-1' });
    const updated = await users().update(account.id, user.id, { displayName: null, role: 'admin', givenName: 'Una' });
    expect(updated).toMatchObject({ displayName: null, role: 'admin', givenName: 'Una', externalId: 'ext-1', version: 2 });
    expect((await users().findByExternalId(account.id, 'ext-1'))?.id).toBe(user.id);
  });

  describe('the last active admin', () => {
    it.each([
      ['deactivate', (s: ReturnType<typeof users>, a: number, id: number) => s.update(a, id, { active: false })],
      ['deactivate', (s: ReturnType<typeof users>, a: number, id: number) => s.setActive(a, id, false)],
      ['demote', (s: ReturnType<typeof users>, a: number, id: number) => s.update(a, id, { role: 'member' })],
      ['delete', (s: ReturnType<typeof users>, a: number, id: number) => s.delete(a, id)],
    ])('cannot be %sd (409), and can once another active admin exists', async (action, act) => {
      const account = await server().newAccount();
      const error = await failure(act(users(), account.id, account.admin.id));
      expect(error.status).toBe(409);
      expect(error.message).toContain(`Cannot ${action} the last active admin`);
      expect(await users().get(account.id, account.admin.id)).toMatchObject({ role: 'admin', active: true });

      // An inactive admin does not keep the account open.
      const dormant = await users().create(account.id, { email: 'dormant@x.com', role: 'admin', active: false });
      expect((await failure(act(users(), account.id, account.admin.id))).status).toBe(409);
      await users().setActive(account.id, dormant.id, true);
      await expect(act(users(), account.id, account.admin.id)).resolves.not.toThrow();
    });

    it('two admins demoting each other at once: exactly one succeeds, one active admin remains', async () => {
      const account = await server().newAccount();
      const second = await account.addUser('admin');
      const results = await Promise.allSettled([
        users().update(account.id, account.admin.id, { role: 'member' }),
        users().setActive(account.id, second.id, false),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
      const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
      expect(rejected.reason).toMatchObject({ status: 409 });
      const admins = (await users().list(account.id, {})).items.filter((u) => u.role === 'admin' && u.active);
      expect(admins).toHaveLength(1);
    });

    it('a member can be deactivated, demoted further and deleted freely', async () => {
      const account = await server().newAccount();
      await users().setActive(account.id, account.member.id, false);
      await users().delete(account.id, account.member.id);
      expect(await users().find(account.id, account.member.id)).toBeUndefined();
    });
  });

  it("another account's user is as missing as an unknown one", async () => {
    const account = await server().newAccount();
    const other = await server().newAccount();
    for (const act of [
      () => users().get(account.id, other.member.id),
      () => users().update(account.id, other.member.id, { displayName: 'x' }),
      () => users().delete(account.id, other.member.id),
    ]) {
      const error = await failure(act());
      expect(error.status).toBe(404);
    }
    expect(await users().getMany(account.id, [other.member.id, account.member.id])).toHaveLength(1);
  });

  it('lists with a cursor and an email filter; searches with an offset and a total', async () => {
    const account = await server().newAccount();
    const extra = await users().create(account.id, { email: 'Zed@x.com' });
    const first = await users().list(account.id, { first: 2 });
    expect(first.items.map((u) => u.id)).toEqual([account.admin.id, account.member.id]);
    expect(first.pageInfo.hasNextPage).toBe(true);
    const rest = await users().list(account.id, { first: 2, after: first.pageInfo.endCursor! });
    expect(rest.items.map((u) => u.id)).toEqual([extra.id]);
    expect((await users().list(account.id, { email: 'zed@X.com' })).items.map((u) => u.id)).toEqual([extra.id]);

    const page = await users().search(account.id, { offset: 1, limit: 1 });
    expect(page).toMatchObject({ total: 3, items: [{ id: account.member.id }] });
    expect(await users().search(account.id, { offset: 0, limit: 10, email: 'ZED@x.com' })).toMatchObject({ total: 1 });
  });

  it("joins the caller's transaction: a rolled-back create leaves nothing behind", async () => {
    const account = await server().newAccount();
    await expect(
      transaction(server().store.db, async () => {
        await users().create(account.id, { email: 'ghost@x.com' });
        expect(await users().findByEmail(account.id, 'ghost@x.com')).toBeDefined();
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await users().findByEmail(account.id, 'ghost@x.com')).toBeUndefined();
  });
  it('stores e-mail addresses (at most one primary); updates that leave them out keep them', async () => {
    const account = await server().newAccount();
    const plain = await users().create(account.id, { email: 'plain@x.com' });
    expect(plain.emails).toEqual([]);
    const emails = [
      { value: ' w@x.com ', type: 'work', primary: true },
      { value: 'h@x.com', type: 'home' },
    ];
    const user = await users().create(account.id, { email: 'e@x.com', emails });
    expect(user.emails).toEqual([
      { value: 'w@x.com', type: 'work', primary: true },
      { value: 'h@x.com', type: 'home' },
    ]);
    const renamed = await users().update(account.id, user.id, { displayName: 'E' });
    expect(renamed.emails).toEqual(user.emails);
    expect((await users().update(account.id, user.id, { emails: [] })).emails).toEqual([]);
    const twoPrimaries = [
      { value: 'a@x.com', primary: true },
      { value: 'b@x.com', primary: true },
    ];
    expect((await failure(users().update(account.id, user.id, { emails: twoPrimaries }))).status).toBe(400);
    expect((await failure(users().create(account.id, { email: 'f@x.com', emails: [{ value: 'nope' }] }))).status).toBe(400);
    expect(await users().findByEmail(account.id, 'f@x.com')).toBeUndefined();
  });
});
