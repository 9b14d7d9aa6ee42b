import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStore, storeKinds } from '../test-support/stores.js';
import { AccountScopedRepo } from './account-scoped-repo.js';
import type { Store } from './store.js';

/** Two accounts with rows in one table: every statement sees only its own account's rows. */
describe.each(storeKinds)('the account-scoped repository [%s]', (kind) => {
  let store: Store;
  let repo: AccountScopedRepo<'oauth_integration'>;
  let ours: number;
  let theirs: number;

  const integration = (accountId: number, name: string) => ({
    account_id: accountId,
    name,
    type: 'generic',
    auth_url: 'https://idp.example/auth',
    token_url: 'https://idp.example/token',
    client_id: 'client',
    client_secret_encrypted: null,
    redirect_uri: 'https://plinth.example/callback',
    config: null,
    scopes: null,
  });

  beforeAll(async () => {
    store = await openTestStore(kind);
    repo = new AccountScopedRepo(store.db, 'oauth_integration', 'scoped-test');
    const account = async (name: string) =>
      (await store.db.insertInto('account').values({ name }).returning('id').executeTakeFirstOrThrow()).id;
    ours = await account('scoped-ours');
    theirs = await account('scoped-theirs');
  });
  afterAll(async () => {
    await store.close();
  });

  it('finds, changes and deletes a row only within its account', async () => {
    const row = await repo.insert(integration(ours, 'first'));
    expect(await repo.find(theirs, row.id)).toBeUndefined();
    expect(await repo.update(theirs, row.id, { name: 'taken' })).toBeUndefined();
    expect(await repo.delete(theirs, row.id)).toBe(false);
    const changed = await repo.update(ours, row.id, { name: 'renamed' });
    expect(changed?.name).toBe('renamed');
    expect(changed!.updated_at.getTime()).toBeGreaterThanOrEqual(row.updated_at.getTime());
    expect((await repo.find(ours, row.id))?.name).toBe('renamed');
    expect(await repo.delete(ours, row.id)).toBe(true);
    expect(await repo.find(ours, row.id)).toBeUndefined();
  });

  it("pages the account's rows in id order, with cursors that name the list", async () => {
    for (const name of ['a', 'b', 'c']) await repo.insert(integration(ours, `page-${name}`));
    await repo.insert(integration(theirs, 'page-theirs'));
    const first = await repo.page(ours, { first: 2 }, (row) => row.name);
    expect(first.items).toEqual(['page-a', 'page-b']);
    expect(first.pageInfo.hasNextPage).toBe(true);
    const second = await repo.page(ours, { first: 2, after: first.pageInfo.endCursor! }, (row) => row.name);
    expect(second.items).toEqual(['page-c']);
    expect(second.pageInfo.hasNextPage).toBe(false);
    const other = new AccountScopedRepo(store.db, 'oauth_integration', 'another-list');
    await expect(other.page(ours, { first: 2, after: first.pageInfo.endCursor! }, (row) => row.name)).rejects.toMatchObject({
      status: 400,
    });
  });
});
