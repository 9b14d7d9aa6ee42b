import { expect, it } from 'vitest';
import { authorizationSuite } from '../../test-support/authorization.js';
import { describeOnStores } from '../../test-support/server.js';
import { cases, SLACK_TOKEN } from './authorization.cases.js';

const URL = '/api/v1/tenant-settings/slack-bot-token';

describeOnStores('the Slack bot token, a tenant setting', (server) => {
  it('is set by an admin, answered only as configured or not, replaced, and removed', async () => {
    const account = await server().newAccount();
    const ask = () => account.request({ method: 'GET', url: URL, as: account.member });
    expect((await ask()).body).toEqual({ configured: false, updatedAt: null });

    const set = await account.request({ method: 'PUT', url: URL, as: account.admin, body: { token: SLACK_TOKEN } });
    expect(set.status, set.text).toBe(200);
    expect(set.body).toEqual({ configured: true, updatedAt: expect.any(String) });
    expect(set.text).not.toContain(SLACK_TOKEN);
    expect((await ask()).body).toEqual(set.body);
    // Sealed in the store, opened only for posting.
    const row = await server()
      .store.db.selectFrom('slack_bot_token')
      .selectAll()
      .where('account_id', '=', account.id)
      .executeTakeFirstOrThrow();
    expect(row.token_sealed).not.toContain(SLACK_TOKEN);
    expect(await server().services.delivery.slackTokens.token(account.id)).toBe(SLACK_TOKEN);

    await account.request({ method: 'PUT', url: URL, as: account.admin, body: { token: 'xoxb-another-token-0001' } });
    expect(await server().services.delivery.slackTokens.token(account.id)).toBe('xoxb-another-token-0001');

    expect((await account.request({ method: 'DELETE', url: URL, as: account.admin })).status).toBe(204);
    expect((await ask()).body).toEqual({ configured: false, updatedAt: null });
    const again = await account.request({ method: 'DELETE', url: URL, as: account.admin });
    expect([again.status, again.body.error]).toEqual([404, 'No Slack bot token is set for this account']);
  });

  it('refuses a token that is not a bot token, and unknown fields, by name', async () => {
    const account = await server().newAccount();
    const user = await account.request({ method: 'PUT', url: URL, as: account.admin, body: { token: 'xoxp-1234567890-user' } });
    expect([user.status, user.body.error]).toEqual([
      400,
      'token must be a Slack bot token (xoxb-…): a user or app-level token cannot post as the bot',
    ]);
    const extra = await account.request({ method: 'PUT', url: URL, as: account.admin, body: { token: SLACK_TOKEN, channel: 'C1' } });
    expect(extra.status).toBe(400);
    expect(extra.body.error).toContain('channel');
    const empty = await account.request({ method: 'PUT', url: URL, as: account.admin, body: {} });
    expect(empty.status).toBe(400);
    expect((await account.request({ method: 'GET', url: URL, as: account.admin })).body.configured).toBe(false);
  });

  it("a member may ask whether one is set but not set or remove it; another account's token is not this one's", async () => {
    const account = await server().newAccount();
    const other = await server().newAccount();
    await account.request({ method: 'PUT', url: URL, as: account.admin, body: { token: SLACK_TOKEN } });
    const put = await account.request({ method: 'PUT', url: URL, as: account.member, body: { token: SLACK_TOKEN } });
    expect(put.status).toBe(403);
    expect((await account.request({ method: 'DELETE', url: URL, as: account.member })).status).toBe(403);
    expect((await other.request({ method: 'GET', url: URL, as: other.admin })).body.configured).toBe(false);
  });

  authorizationSuite(server, cases);
});
