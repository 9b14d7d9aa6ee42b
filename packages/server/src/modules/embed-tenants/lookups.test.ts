import { sql } from 'kysely';
import { expect, it, vi } from 'vitest';
import { openTestStoreAgain } from '../../test-support/stores.js';
import { describeOnStores } from '../../test-support/server.js';
import { embedAccount, mintClaims, type EmbedAccount } from '../embed/test-fixtures.js';

/**
 * generate-session and provisioning remember, per account, that a deployment exists, the tenant
 * settings and the ids of tenant-wide names. These tests prove a session never acts on an answer
 * that a change has made wrong, whichever way the change was made.
 */
describeOnStores('embedding lookups', (server) => {
  /** Warms the lookups of the account with one session naming `groups`, `attributes` and the settings. */
  const warm = async (account: EmbedAccount, body: Record<string, unknown> = {}) => {
    const response = await account.generate({ externalId: 'warm', ...body });
    expect(response.status, response.text).toBe(200);
  };

  /** Raw SQL bypasses this process's write watch; on PostgreSQL it even runs on another connection. */
  const behindOurBack = async (statement: ReturnType<typeof sql>) => {
    const { store } = server();
    if (store.kind === 'pglite') {
      await statement.execute(store.db);
      return;
    }
    const other = await openTestStoreAgain(store, 1);
    await statement.execute(other.db);
    await other.close();
  };

  it('2.7 a group renamed or deleted in this process is seen at once', async () => {
    const account = await embedAccount(server());
    const id = await account.group('sales');
    await account.group('emea');
    await warm(account, { groups: ['sales', 'emea'] });
    await server().services.groups.update(account.id, id, { name: 'revenue' });
    expect((await account.generate({ externalId: 'ann', groups: ['sales'] })).body.error).toBe('Groups with names sales not found');
    expect((await mintClaims(account, { externalId: 'ann', groups: ['revenue'] })).groups).toEqual(['revenue']);
    await server().services.groups.delete(account.id, id);
    expect((await account.generate({ externalId: 'ann', groups: ['revenue', 'emea'] })).body.error).toBe(
      'Groups with names revenue not found',
    );
  });

  it('2.6 an attribute deleted in this process is seen at once', async () => {
    const account = await embedAccount(server());
    const id = await account.attribute('region', 'string');
    await warm(account, { userAttributes: [{ name: 'region', value: 'emea' }] });
    await server().services.userAttributes.delete(account.id, id);
    const refused = await account.generate({ externalId: 'ann', userAttributes: [{ name: 'region', value: 'emea' }] });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('User attributes not found');
  });

  it('2.10 and 2.4 tenant settings changed in this process apply to the next session', async () => {
    const account = await embedAccount(server());
    await warm(account);
    await server().services.tenantSettings.update(account.id, { showDashboardChat: false });
    expect((await mintClaims(account, { externalId: 'ann' })).settings).toEqual({ showDashboardChat: false });
    await account.creatorMode(true);
    expect((await account.generate({ externalId: 'ann', creatorMode: true })).status).toBe(200);
    await account.creatorMode(false);
    expect((await account.generate({ externalId: 'ann', creatorMode: true })).status).toBe(400);
  });

  it('4.3 a deployment deleted in this process gets 404 at once', async () => {
    const account = await embedAccount(server());
    await warm(account);
    await server().store.db.deleteFrom('deployment').where('id', '=', account.deploymentId).execute();
    const response = await account.generate({ externalId: 'ann' });
    expect(response.status).toBe(404);
  });

  it('a change made outside this server (another replica, or SQL by hand) reaches it through NOTIFY', async () => {
    const account = await embedAccount(server());
    await account.group('sales');
    await warm(account, { groups: ['sales'] });
    await behindOurBack(sql`update user_group set name = 'revenue' where account_id = ${account.id} and name = 'sales'`);
    await behindOurBack(sql`update tenant_settings set show_dashboard_chat = false where account_id = ${account.id}`);
    // Under the 5 s lifetime of an entry: only NOTIFY can make these pass.
    await vi.waitFor(
      async () => {
        expect((await account.generate({ externalId: 'ann', groups: ['sales'] })).body.error).toBe('Groups with names sales not found');
      },
      { timeout: 3_000, interval: 50 },
    );
    expect((await mintClaims(account, { externalId: 'ann', groups: ['revenue'] })).settings).toEqual({ showDashboardChat: false });
    await behindOurBack(sql`delete from deployment where id = ${account.deploymentId}`);
    await vi.waitFor(async () => expect((await account.generate({ externalId: 'ann' })).status).toBe(404), {
      timeout: 3_000,
      interval: 50,
    });
  });

  it('a remembered id the store no longer has costs a retry, never a 500', async () => {
    const account = await embedAccount(server());
    const id = await account.group('sales');
    const { lookups } = server().services.embedTenants;
    // As if the group had been deleted and re-created by another server a moment before its NOTIFY arrived.
    vi.spyOn(lookups, 'groups').mockResolvedValueOnce(new Map([['sales', { id: id + 1_000_000, name: 'sales' }]]));
    expect((await mintClaims(account, { externalId: 'ann', groups: ['sales'] })).groups).toEqual(['sales']);
    expect((await account.externalUser('ann')).groups).toEqual(['sales']);
    vi.restoreAllMocks();
  });

  it("one account's change leaves another account's lookups alone and its sessions working", async () => {
    const account = await embedAccount(server());
    const other = await embedAccount(server());
    await other.group('sales');
    await warm(other, { groups: ['sales'] });
    await server().services.tenantSettings.update(account.id, { showDashboardChat: false });
    expect((await mintClaims(other, { externalId: 'ann', groups: ['sales'] })).settings).toEqual({ showDashboardChat: true });
  });
});
