import { expect, it } from 'vitest';
import { describeOnStores } from '../../test-support/server.js';
import { embedAccount, type EmbedAccount } from '../embed/test-fixtures.js';
import { deploymentOf, publishedDashboard } from './test-fixtures.js';

/**
 * Dashboard embed access and getDashboard on the account's own dashboards. getDashboard takes embed
 * tokens (as bare JWTs, the data API's credential) beside API keys and access tokens; the shared
 * suite checks them on an embed tenant's dashboard, these on the account's, with read-only sessions.
 */
describeOnStores('dashboard embed access', (server) => {
  const tokenFor = async (account: EmbedAccount, body: Record<string, unknown> = {}) => {
    const generated = await account.generate({ externalId: 'ann', ...body });
    expect(generated.status, generated.text).toBe(200);
    const exchanged = await account.request({
      method: 'POST',
      url: '/api/v1/embed/session/token',
      body: { sessionId: generated.body.sessionId },
    });
    expect(exchanged.status, exchanged.text).toBe(200);
    return exchanged.body.token as string;
  };
  const setEmbed = (
    account: EmbedAccount,
    publicId: string,
    allowEmbed: boolean,
    as = account.admin,
    deploymentId = account.deploymentId,
  ) =>
    account.request({
      method: 'PUT',
      url: `/api/v1/deployments/${deploymentId}/dashboards/${publicId}/embed-access`,
      as,
      body: { allowEmbed },
    });
  const open = (account: EmbedAccount, publicId: string, as: string | EmbedAccount['admin'] | null) =>
    account.request({ method: 'GET', url: `/api/v1/embed/dashboard/${publicId}`, as });

  it('an embed token of the deployment opens a published dashboard only while embedding is allowed', async () => {
    const account = await embedAccount(server());
    const { dashboard } = await publishedDashboard(server(), account, account.deploymentId);
    const token = await tokenFor(account);
    expect((await open(account, dashboard.publicId, token)).status).toBe(404);

    const enabled = await setEmbed(account, dashboard.publicId, true);
    expect(enabled.status, enabled.text).toBe(200);
    expect(enabled.body).toMatchObject({ publicId: dashboard.publicId, allowEmbed: true });
    const opened = await open(account, dashboard.publicId, token);
    expect(opened.status, opened.text).toBe(200);
    expect(opened.body).toMatchObject({ publicId: dashboard.publicId, status: 'published', versionNumber: 1, config: { title: 'Board' } });
    expect((await open(account, dashboard.publicId, `Bearer ${token}`)).status).toBe(200);

    expect((await setEmbed(account, dashboard.publicId, false)).body.allowEmbed).toBe(false);
    expect((await open(account, dashboard.publicId, token)).status).toBe(404);
  });

  it("another deployment's token, and another account's, get 404; an unknown public id 404", async () => {
    const account = await embedAccount(server());
    const { dashboard } = await publishedDashboard(server(), account, account.deploymentId);
    await setEmbed(account, dashboard.publicId, true);
    const elsewhere = await server().services.deployments.create(account.id, { name: 'other' }, 'http://localhost');
    const otherToken = await tokenFor(account, { deploymentId: elsewhere.id });
    const refused = await open(account, dashboard.publicId, otherToken);
    expect(refused.status).toBe(404);
    expect(refused.body.error).toBe(`Dashboard ${dashboard.publicId} not found`);
    expect((await open(account, 'no-such-dashboard', await tokenFor(account))).status).toBe(404);

    // Another account's token is not even valid on this account's host.
    const other = await embedAccount(server());
    expect((await open(account, dashboard.publicId, await tokenFor(other))).status).toBe(403);
  });

  it('a token minted for one dashboard opens that one only (403 for another, even one that does not exist)', async () => {
    const account = await embedAccount(server());
    const first = await publishedDashboard(server(), account, account.deploymentId);
    const second = await publishedDashboard(server(), account, account.deploymentId);
    await setEmbed(account, first.dashboard.publicId, true);
    await setEmbed(account, second.dashboard.publicId, true);
    const only = await tokenFor(account, { publicDashboardId: first.dashboard.publicId });
    expect((await open(account, first.dashboard.publicId, only)).status).toBe(200);
    const other = await open(account, second.dashboard.publicId, only);
    expect(other.status).toBe(403);
    expect(other.body.error).toMatch(/may open only dashboard/);
  });

  it('an archived dashboard cannot be allowed and is not opened by embed tokens; its owner still reads it', async () => {
    const account = await embedAccount(server());
    const { workbook, dashboard } = await publishedDashboard(server(), account, account.deploymentId);
    await setEmbed(account, dashboard.publicId, true);
    const archive = await account.request({
      method: 'POST',
      url: `/api/v1/deployments/${account.deploymentId}/workbooks/${workbook.id}/publish`,
      as: account.member,
      body: { workbookId: workbook.id, status: 'archived' },
    });
    expect(archive.body.status).toBe('archived');
    expect((await open(account, dashboard.publicId, await tokenFor(account))).status).toBe(404);
    const allow = await setEmbed(account, dashboard.publicId, true);
    expect(allow.status).toBe(409);
    expect(allow.body.error).toMatch(/only a published dashboard can be embedded/);
    expect((await setEmbed(account, dashboard.publicId, false)).status).toBe(200);
    expect((await open(account, dashboard.publicId, account.member)).body.status).toBe('archived');
  });

  it('embed access needs WorkbookManage on the workbook or an admin; a reader gets 403, a stranger 404', async () => {
    const account = await embedAccount(server());
    const { workbook, dashboard } = await publishedDashboard(server(), account, account.deploymentId);
    expect((await setEmbed(account, dashboard.publicId, true, account.member)).status).toBe(200);
    const reader = await account.addUser('member');
    await server()
      .store.db.insertInto('resource_policy')
      .values({ account_id: account.id, user_id: reader.id, resource_type: 'Workbook', resource_id: workbook.id, action: 'WorkbookEdit' })
      .execute();
    const refused = await setEmbed(account, dashboard.publicId, false, reader);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatch(/WorkbookManage/);
    expect((await setEmbed(account, dashboard.publicId, false, await account.addUser('member'))).status).toBe(404);
    const otherDeployment = await deploymentOf(server(), account);
    expect((await setEmbed(account, dashboard.publicId, false, account.admin, otherDeployment)).status).toBe(404);
  });

  it('getDashboard credentials: users who may read the workbook; 401 without or with a malformed one; a data API token 403', async () => {
    const account = await embedAccount(server());
    const { dashboard } = await publishedDashboard(server(), account, account.deploymentId);
    expect((await open(account, dashboard.publicId, account.member)).status).toBe(200);
    expect((await open(account, dashboard.publicId, `Bearer ${await account.accessToken(account.member)}`)).status).toBe(200);
    expect((await open(account, dashboard.publicId, account.admin)).status).toBe(200);
    expect((await open(account, dashboard.publicId, await account.addUser('member'))).status).toBe(404);
    const scoped = await server().services.credentials.createApiKey(account.id, account.member.id, {
      name: 'scoped',
      role: 'member',
      deploymentIds: [await deploymentOf(server(), account)],
    });
    expect((await open(account, dashboard.publicId, `Api-Key ${scoped.key}`)).status).toBe(404);

    const missing = await open(account, dashboard.publicId, null);
    expect(missing.status).toBe(401);
    expect(missing.body.error).toMatch(/Missing Authorization/);
    expect((await open(account, dashboard.publicId, 'Api-Key nope')).status).toBe(401);
    expect((await open(account, dashboard.publicId, `Bearer ${await account.scimToken()}`)).status).toBe(401);
    const minted = await account.request({
      method: 'POST',
      url: `/api/v1/deployments/${account.deploymentId}/token`,
      as: account.admin,
      body: {},
    });
    expect(minted.status, minted.text).toBe(200);
    const refused = await open(account, dashboard.publicId, minted.body.cubeApiToken);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatch(/EmbedDashboardRead/);
  });
});
