import { expect, it } from 'vitest';
import { ApiError } from '../../http/errors.js';
import { describeOnStores } from '../../test-support/server.js';

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describeOnStores('groups service', (server) => {
  const groups = () => server().services.groups;
  const memberIds = async (accountId: number, groupId: number) => (await groups().listMembers(accountId, groupId)).map((u) => u.id);

  it('creates groups with names unique per account ignoring case; lookup by name stays exact', async () => {
    const account = await server().newAccount();
    const other = await server().newAccount();
    const sales = await groups().create(account.id, { name: 'Sales', description: 'EMEA' });
    expect(sales).toMatchObject({ name: 'Sales', description: 'EMEA', userCount: 0, version: 1, externalId: null });
    const lower = await failure(groups().create(account.id, { name: 'sales' }));
    expect(lower.status).toBe(409);
    expect(lower.message).toContain('"Sales"');
    await expect(groups().create(other.id, { name: 'sales' })).resolves.toMatchObject({ name: 'sales' });
    expect(await groups().findByNames(account.id, ['SALES'])).toEqual([]);
    expect((await groups().findNameHolder(account.id, 'SALES'))?.id).toBe(sales.id);
    const duplicate = await failure(groups().create(account.id, { name: 'Sales' }));
    expect(duplicate.status).toBe(409);
    expect(duplicate.message).toContain('"Sales"');
    const second = await groups().create(account.id, { name: 'Support' });
    const rename = await failure(groups().update(account.id, second.id, { name: 'SALES' }));
    expect(rename.status).toBe(409);
    await expect(groups().update(account.id, sales.id, { name: 'SALES' })).resolves.toMatchObject({ name: 'SALES' });
    expect((await failure(groups().create(account.id, { name: '' }))).status).toBe(400);
    expect((await failure(groups().create(account.id, { name: 'x'.repeat(201) }))).status).toBe(400);
  });

  it('findByNames returns the groups that exist, and only in this account', async () => {
    const account = await server().newAccount();
    const other = await server().newAccount();
    const a = await groups().create(account.id, { name: 'a' });
    const b = await groups().create(account.id, { name: 'b' });
    await groups().create(other.id, { name: 'c' });
    const found = await groups().findByNames(account.id, ['b', 'a', 'c', 'missing', 'a']);
    expect(found.map((g) => g.id).sort()).toEqual([a.id, b.id].sort());
    expect(await groups().findByNames(account.id, [])).toEqual([]);
  });

  it('idsByNames returns only id and name of the groups that exist, and only in this account', async () => {
    const account = await server().newAccount();
    const other = await server().newAccount();
    const a = await groups().create(account.id, { name: 'a' });
    await groups().create(other.id, { name: 'c' });
    expect(await groups().idsByNames(account.id, ['a', 'c', 'missing', 'a'])).toEqual([{ id: a.id, name: 'a' }]);
    expect(await groups().idsByNames(account.id, [])).toEqual([]);
  });

  it('addMembers is idempotent and counts users; removeMember is idempotent', async () => {
    const account = await server().newAccount();
    const group = await groups().create(account.id, { name: 'g' });
    await groups().addMembers(account.id, group.id, [account.admin.id, account.member.id, account.admin.id]);
    await groups().addMembers(account.id, group.id, [account.admin.id]);
    expect(await memberIds(account.id, group.id)).toEqual([account.admin.id, account.member.id]);
    const counted = await groups().get(account.id, group.id);
    expect(counted.userCount).toBe(2);
    expect(counted.version).toBeGreaterThan(group.version);

    await groups().removeMember(account.id, group.id, account.admin.id);
    await groups().removeMember(account.id, group.id, account.admin.id);
    expect(await memberIds(account.id, group.id)).toEqual([account.member.id]);
    expect((await failure(groups().removeMember(account.id, group.id, 999_999))).status).toBe(404);
  });

  it("addMembers with unknown or another account's user ids is 400 naming them, and adds nobody", async () => {
    const account = await server().newAccount();
    const other = await server().newAccount();
    const group = await groups().create(account.id, { name: 'g' });
    const error = await failure(groups().addMembers(account.id, group.id, [account.member.id, other.member.id, 999_999]));
    expect(error.status).toBe(400);
    expect(error.message).toContain(String(other.member.id));
    expect(error.message).toContain('999999');
    expect(error.message).not.toContain(String(account.member.id));
    expect(await memberIds(account.id, group.id)).toEqual([]);
  });

  it("setMembers replaces every member; setUserGroups replaces or clears one user's groups (2.7)", async () => {
    const account = await server().newAccount();
    const extra = await account.addUser('member');
    const g1 = await groups().create(account.id, { name: 'g1' });
    const g2 = await groups().create(account.id, { name: 'g2' });
    await groups().addMembers(account.id, g1.id, [account.admin.id, account.member.id]);
    await groups().setMembers(account.id, g1.id, [account.member.id, extra.id]);
    expect(await memberIds(account.id, g1.id)).toEqual([account.member.id, extra.id]);
    await groups().setMembers(account.id, g1.id, []);
    expect(await memberIds(account.id, g1.id)).toEqual([]);

    await groups().setUserGroups(account.id, extra.id, [g1.id, g2.id]);
    expect((await groups().groupsOfUser(account.id, extra.id)).map((g) => g.name)).toEqual(['g1', 'g2']);
    await groups().setUserGroups(account.id, extra.id, [g2.id]);
    expect((await groups().groupsOfUser(account.id, extra.id)).map((g) => g.name)).toEqual(['g2']);
    await groups().setUserGroups(account.id, extra.id, []);
    expect(await groups().groupsOfUser(account.id, extra.id)).toEqual([]);
  });

  it('deleting a group takes its memberships; deleting a user takes theirs', async () => {
    const account = await server().newAccount();
    const group = await groups().create(account.id, { name: 'g' });
    const keep = await groups().create(account.id, { name: 'keep' });
    await groups().addMembers(account.id, group.id, [account.member.id]);
    await groups().addMembers(account.id, keep.id, [account.member.id, account.admin.id]);
    await groups().delete(account.id, group.id);
    expect((await failure(groups().get(account.id, group.id))).status).toBe(404);
    expect((await groups().groupsOfUser(account.id, account.member.id)).map((g) => g.id)).toEqual([keep.id]);
    await server().services.users.delete(account.id, account.member.id);
    expect((await groups().get(account.id, keep.id)).userCount).toBe(1);
  });

  it("another account's group is as missing as an unknown one", async () => {
    const account = await server().newAccount();
    const other = await server().newAccount();
    const foreign = await groups().create(other.id, { name: 'theirs' });
    for (const act of [
      () => groups().get(account.id, foreign.id),
      () => groups().update(account.id, foreign.id, { name: 'mine' }),
      () => groups().delete(account.id, foreign.id),
      () => groups().addMembers(account.id, foreign.id, [account.member.id]),
      () => groups().listMembers(account.id, foreign.id),
    ]) {
      expect((await failure(act())).status).toBe(404);
    }
    expect((await failure(groups().setUserGroups(account.id, account.member.id, [foreign.id]))).status).toBe(400);
  });

  it('pages members by user id, and searches by name with a total', async () => {
    const account = await server().newAccount();
    const third = await account.addUser('member');
    const group = await groups().create(account.id, { name: 'g', externalId: 'okta-1' });
    await groups().addMembers(account.id, group.id, [third.id, account.member.id, account.admin.id]);
    const first = await groups().pageMembers(account.id, group.id, { first: 2 });
    expect(first.items.map((u) => u.id)).toEqual([account.admin.id, account.member.id]);
    const rest = await groups().pageMembers(account.id, group.id, { first: 2, after: first.pageInfo.endCursor! });
    expect(rest.items.map((u) => u.id)).toEqual([third.id]);
    expect(rest.pageInfo.hasNextPage).toBe(false);
    expect(await groups().search(account.id, { offset: 0, limit: 5, externalId: 'okta-1' })).toMatchObject({
      total: 1,
      items: [{ id: group.id }],
    });
    expect((await groups().findByUuid(account.id, group.uuid))?.id).toBe(group.id);
  });
});
