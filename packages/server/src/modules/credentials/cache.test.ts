import { sql } from 'kysely';
import { expect, it, vi } from 'vitest';
import { openTestStoreAgain } from '../../test-support/stores.js';
import { describeOnStores } from '../../test-support/server.js';
import { scimClient } from '../scim/scim-test-client.js';
import { CredentialRepo } from './repo.js';

/**
 * Verified credentials are cached for a few seconds; these tests prove the cache never honours a
 * credential that was taken away, whichever way it was taken away.
 */
describeOnStores('verified-credential cache', (server) => {
  const probe = (account: Awaited<ReturnType<ReturnType<typeof server>['newAccount']>>, as: string) =>
    account.request({ method: 'GET', url: '/api/v1/deployments', as });

  it.each([
    [
      'revoked',
      async (db: any, user: { id: number; apiKeyId: number }) =>
        db.updateTable('api_key').set({ revoked_at: new Date() }).where('id', '=', user.apiKeyId).execute(),
    ],
    [
      'deactivated',
      async (db: any, user: { id: number }) => db.updateTable('app_user').set({ active: false }).where('id', '=', user.id).execute(),
    ],
    ['deleted', async (db: any, user: { id: number }) => db.deleteFrom('app_user').where('id', '=', user.id).execute()],
  ])('a key in use stops at once when its user or key is %s in this process', async (_label, takeAway) => {
    const account = await server().newAccount();
    const user = await account.addUser('member');
    expect((await probe(account, `Api-Key ${user.apiKey}`)).status).toBe(200);
    expect((await probe(account, `Api-Key ${user.apiKey}`)).status).toBe(200);
    await takeAway(server().store.db, user);
    expect((await probe(account, `Api-Key ${user.apiKey}`)).status).toBe(401);
  });

  it('an admin key in use loses admin at once when its user is demoted', async () => {
    const account = await server().newAccount();
    const user = await account.addUser('admin');
    const create = () => account.request({ method: 'POST', url: '/api/v1/api-keys', as: user, body: { name: 'x' } });
    expect((await create()).status).toBe(201);
    await server().store.db.updateTable('app_user').set({ role: 'member' }).where('id', '=', user.id).execute();
    expect((await create()).status).toBe(403);
  });

  it('a change made outside this server (another replica, or SQL by hand) reaches it through NOTIFY', async () => {
    const account = await server().newAccount();
    const user = await account.addUser('member');
    const token = await account.accessToken(user);
    expect((await probe(account, `Api-Key ${user.apiKey}`)).status).toBe(200);
    expect((await probe(account, `Bearer ${token}`)).status).toBe(200);

    const { store } = server();
    const revokeBehindOurBack = async (statement: ReturnType<typeof sql>) => {
      if (store.kind === 'pglite') {
        // Raw SQL bypasses the in-process write watch; only the trigger's NOTIFY can tell.
        await statement.execute(store.db);
        return;
      }
      const other = await openTestStoreAgain(store, 1);
      await statement.execute(other.db);
      await other.close();
    };
    await revokeBehindOurBack(sql`update app_user set active = false where id = ${user.id}`);
    await vi.waitFor(
      async () => {
        expect((await probe(account, `Api-Key ${user.apiKey}`)).status).toBe(401);
        expect((await probe(account, `Bearer ${token}`)).status).toBe(401);
      },
      { timeout: 3_000, interval: 50 },
    ); // under the 5 s cache lifetime: only NOTIFY can make it pass
  });

  it("one account's change leaves another account's credentials working", async () => {
    const account = await server().newAccount();
    const other = await server().newAccount();
    expect((await probe(other, `Api-Key ${other.admin.apiKey}`)).status).toBe(200);
    await server().store.db.updateTable('api_key').set({ revoked_at: new Date() }).where('id', '=', account.member.apiKeyId).execute();
    expect((await probe(other, `Api-Key ${other.admin.apiKey}`)).status).toBe(200);
    expect((await probe(account, `Api-Key ${account.member.apiKey}`)).status).toBe(401);
  });

  /** How often a key had to be looked up in the store rather than found in the cache. */
  const storeLookups = () => vi.spyOn(CredentialRepo.prototype, 'findApiKeyByHash');

  it("one account's SCIM sync keeps another account's verified keys cached", async () => {
    const syncing = await scimClient(await server().newAccount());
    const other = await server().newAccount();
    const user = await syncing.createUser();
    expect((await probe(other, `Api-Key ${other.admin.apiKey}`)).status).toBe(200);
    const lookups = storeLookups();
    try {
      const deactivated = await syncing.patch(`/Users/${user.id}`, [{ op: 'replace', path: 'active', value: false }]);
      expect(deactivated.status, deactivated.text).toBe(200);
      expect((await probe(other, `Api-Key ${other.admin.apiKey}`)).status).toBe(200);
      expect(lookups).not.toHaveBeenCalled();
    } finally {
      lookups.mockRestore();
    }
  });

  it('a raw SQL write in this process forgets at once, even when it does not name the account', async () => {
    const account = await server().newAccount();
    const other = await server().newAccount();
    expect((await probe(account, `Api-Key ${account.member.apiKey}`)).status).toBe(200);
    expect((await probe(other, `Api-Key ${other.member.apiKey}`)).status).toBe(200);
    await sql`update api_key set revoked_at = now() where id = ${account.member.apiKeyId}`.execute(server().store.db);
    expect((await probe(account, `Api-Key ${account.member.apiKey}`)).status).toBe(401);
    // The statement named no account: every account's entries went, so the other key is looked up again, and still works.
    const lookups = storeLookups();
    try {
      expect((await probe(other, `Api-Key ${other.member.apiKey}`)).status).toBe(200);
      expect(lookups).toHaveBeenCalledTimes(1);
    } finally {
      lookups.mockRestore();
    }
  });

  it("a raw SQL write pinned to one account leaves another account's keys cached", async () => {
    const account = await server().newAccount();
    const other = await server().newAccount();
    expect((await probe(account, `Api-Key ${account.member.apiKey}`)).status).toBe(200);
    expect((await probe(other, `Api-Key ${other.member.apiKey}`)).status).toBe(200);
    const lookups = storeLookups();
    try {
      await sql`update api_key set revoked_at = now() where account_id = ${account.id} and id = ${account.member.apiKeyId}`.execute(
        server().store.db,
      );
      expect((await probe(account, `Api-Key ${account.member.apiKey}`)).status).toBe(401);
      expect((await probe(other, `Api-Key ${other.member.apiKey}`)).status).toBe(200);
      expect(lookups).toHaveBeenCalledTimes(1);
    } finally {
      lookups.mockRestore();
    }
  });
});
