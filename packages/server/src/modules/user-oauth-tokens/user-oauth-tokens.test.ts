import { describe, expect, it } from 'vitest';
import { authorizationSuite } from '../../test-support/authorization.js';
import { describeOnStores, type TestServer } from '../../test-support/server.js';
import { cases, standInIntegration } from './authorization.cases.js';
import { CLIENT_ID, CLIENT_SECRET, sharedStandInProvider } from './test-fixtures.js';

const TOKENS = '/api/v1/user-oauth-tokens';
const VERIFIER = 'a'.repeat(20) + '-._~' + 'B'.repeat(24);

async function setup(server: TestServer, config: Record<string, unknown> = {}) {
  const provider = await sharedStandInProvider();
  const account = await server.newAccount();
  const integration = await standInIntegration(server, account, config);
  const create = (body: Record<string, unknown> = {}, as = account.member) =>
    account.request({ method: 'POST', url: TOKENS, as, body: { integrationId: integration.id, code: provider.issueCode(), ...body } });
  const sealed = (id: number) => server.store.db.selectFrom('user_oauth_token').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const holder = { accountId: account.id, userId: account.member.id };
  return { provider, account, integration, create, sealed, holder };
}

describeOnStores('user oauth tokens', (server) => {
  describe('createUserOAuthToken', () => {
    it('runs the authorization-code grant at the token endpoint and keeps the tokens sealed, answering metadata only', async () => {
      const { provider, account, integration, sealed, holder } = await setup(server());
      const code = provider.issueCode({ verifier: VERIFIER });
      const before = provider.requests.length;
      const response = await account.request({
        method: 'POST',
        url: TOKENS,
        as: account.member,
        body: { integrationId: integration.id, code, codeVerifier: VERIFIER },
      });
      expect(response.status, response.text).toBe(201);
      expect(response.body).toEqual({
        id: expect.any(Number),
        integrationId: integration.id,
        scopes: ['read', 'write'],
        tokenType: 'Bearer',
        expiresAt: expect.any(String),
        hasRefreshToken: true,
        createdAt: expect.any(String),
        refreshedAt: null,
        revoked: false,
        revokedAt: null,
      });
      expect(Date.parse(response.body.expiresAt) - Date.now()).toBeGreaterThan(3500_000);
      // The real protocol: a form, HTTP Basic client authentication, the integration's redirect URI.
      const sent = provider.requests[before]!;
      expect(sent.contentType).toBe('application/x-www-form-urlencoded');
      expect(sent.authorization).toBe(`Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`);
      expect(sent.form).toEqual({ grant_type: 'authorization_code', code, redirect_uri: integration.redirectUri, code_verifier: VERIFIER });
      // Stored encrypted; the server can still open it for its own use.
      const row = await sealed(response.body.id);
      const access = await server().services.userOAuthTokens.accessToken(holder, response.body.id);
      expect(provider.liveAccessTokens.has(access!)).toBe(true);
      expect(row.access_token_encrypted).not.toContain(access);
      expect(response.text).not.toContain(access);
      const listed = await account.request({ method: 'GET', url: TOKENS, as: account.member });
      expect(listed.body.items).toEqual([response.body]);
      expect(listed.text).not.toMatch(/at-|rt-/);
    });

    it('sends the client in the body when the integration says client_secret_post; takes the integration scopes when the provider names none', async () => {
      const { provider, create } = await setup(server(), { tokenEndpointAuthMethod: 'client_secret_post' });
      const before = provider.requests.length;
      const response = await create();
      expect(response.status, response.text).toBe(201);
      expect(provider.requests[before]!.authorization).toBeUndefined();
      expect(provider.requests[before]!.form).toMatchObject({ client_id: CLIENT_ID, client_secret: CLIENT_SECRET });
    });

    it.each([
      [{ code: 'code-never-issued' }, 400, /The provider refused the authorization_code grant \(invalid_grant: unknown or used code\)/],
      [{ integrationId: 2147483000 }, 404, /OAuth integration 2147483000 not found/],
      [{ codeVerifier: 'short' }, 400, /codeVerifier/],
      [{ scope: 'x' }, 400, /scope/],
      [{ code: '' }, 400, /code/],
    ])('%j → %i', async (change, status, message) => {
      const { create } = await setup(server());
      const response = await create(change);
      expect(response.status, response.text).toBe(status);
      expect(response.body.error).toMatch(message);
    });

    it('a wrong PKCE verifier is the provider refusing; a provider that fails is 502; a non-http tokenUrl is refused', async () => {
      const { provider, account, integration, create } = await setup(server());
      const code = provider.issueCode({ verifier: VERIFIER });
      const wrong = await account.request({
        method: 'POST',
        url: TOKENS,
        as: account.member,
        body: { integrationId: integration.id, code, codeVerifier: 'z'.repeat(43) },
      });
      expect([wrong.status, wrong.body.error]).toEqual([400, expect.stringContaining('PKCE verification failed')]);
      const db = server().store.db;
      await db
        .updateTable('oauth_integration')
        .set({ token_url: `${provider.url}/broken` })
        .where('id', '=', integration.id)
        .execute();
      server().services.oauthIntegrations.byId.forgetAccount(account.id);
      const broken = await create();
      expect([broken.status, broken.body.code]).toEqual([502, 'bad_gateway']);
      await db.updateTable('oauth_integration').set({ token_url: 'file:///etc/passwd' }).where('id', '=', integration.id).execute();
      server().services.oauthIntegrations.byId.forgetAccount(account.id);
      const file = await create();
      expect([file.status, file.body.error]).toEqual([400, expect.stringContaining('must be an http or https URL')]);
    });
  });

  describe('refresh and revoke', () => {
    it('refresh runs the refresh_token grant and replaces both sealed tokens (rotation)', async () => {
      const { provider, create, sealed, holder, account } = await setup(server());
      const { id } = (await create()).body;
      const before = await sealed(id);
      const oldAccess = await server().services.userOAuthTokens.accessToken(holder, id);
      const response = await account.request({ method: 'POST', url: `${TOKENS}/${id}/refresh`, as: account.member });
      expect(response.status, response.text).toBe(200);
      expect(response.body).toMatchObject({ id, refreshedAt: expect.any(String), revoked: false, hasRefreshToken: true });
      const sent = provider.requests.at(-1)!;
      expect(sent.form.grant_type).toBe('refresh_token');
      const after = await sealed(id);
      expect(after.refresh_token_encrypted).not.toBe(before.refresh_token_encrypted);
      expect(await server().services.userOAuthTokens.accessToken(holder, id)).not.toBe(oldAccess);
      // The rotated token works again: the new refresh token was kept.
      expect((await account.request({ method: 'POST', url: `${TOKENS}/${id}/refresh`, as: account.member })).status).toBe(200);
    });

    it("two refreshes at once both succeed: the loser of the rotation answers with the winner's tokens", async () => {
      const { create, account } = await setup(server());
      const { id } = (await create()).body;
      const refresh = () => account.request({ method: 'POST', url: `${TOKENS}/${id}/refresh`, as: account.member });
      const answers = await Promise.all([refresh(), refresh()]);
      expect(answers.map((a) => a.status)).toEqual([200, 200]);
      expect((await refresh()).status).toBe(200);
    });

    it('a token without a refresh token cannot be refreshed (409)', async () => {
      const { provider, create, account } = await setup(server());
      const { id, hasRefreshToken } = (await create({ code: provider.issueCode({ refresh: false }) })).body;
      expect(hasRefreshToken).toBe(false);
      const response = await account.request({ method: 'POST', url: `${TOKENS}/${id}/refresh`, as: account.member });
      expect([response.status, response.body.error]).toEqual([409, `OAuth token ${id} has no refresh token: the provider issued none`]);
    });

    it('revoke asks the provider (RFC 7009), erases the sealed tokens and keeps the token listed as revoked', async () => {
      const { provider, create, sealed, holder, account } = await setup(server());
      const { id } = (await create()).body;
      const access = await server().services.userOAuthTokens.accessToken(holder, id);
      const revoked = await account.request({ method: 'DELETE', url: `${TOKENS}/${id}`, as: account.member });
      expect(revoked.status, revoked.text).toBe(204);
      const revocations = provider.requests.filter((r) => r.path === '/revoke').slice(-2);
      expect(revocations.map((r) => r.form.token_type_hint)).toEqual(['refresh_token', 'access_token']);
      expect(provider.revoked).toContain(access);
      expect(provider.liveAccessTokens.has(access!)).toBe(false);
      const row = await sealed(id);
      expect([row.access_token_encrypted, row.refresh_token_encrypted]).toEqual([null, null]);
      const listed = await account.request({ method: 'GET', url: TOKENS, as: account.member });
      expect(listed.body.items[0]).toMatchObject({ id, revoked: true, revokedAt: expect.any(String), hasRefreshToken: false });
      expect((await account.request({ method: 'DELETE', url: `${TOKENS}/${id}`, as: account.member })).status).toBe(204);
      const refresh = await account.request({ method: 'POST', url: `${TOKENS}/${id}/refresh`, as: account.member });
      expect([refresh.status, refresh.body.error]).toEqual([409, `OAuth token ${id} is revoked; create a new one`]);
    });

    it('without a revocationUrl, revoke only erases the tokens here', async () => {
      const { provider, account, create } = await setup(server(), { revocationUrl: null });
      const { id } = (await create()).body;
      const before = provider.requests.length;
      expect((await account.request({ method: 'DELETE', url: `${TOKENS}/${id}`, as: account.member })).status).toBe(204);
      expect(provider.requests.length).toBe(before);
    });

    it("another user's token is 404 for every operation, even an admin's; lists show only one's own", async () => {
      const { account, create } = await setup(server());
      const { id } = (await create()).body;
      const mine = await create({}, account.admin);
      for (const [method, url] of [
        ['POST', `${TOKENS}/${id}/refresh`],
        ['DELETE', `${TOKENS}/${id}`],
      ] as const) {
        const response = await account.request({ method, url, as: account.admin });
        expect([response.status, response.body.error]).toEqual([404, `OAuth token ${id} not found`]);
      }
      const listed = await account.request({ method: 'GET', url: TOKENS, as: account.admin });
      expect(listed.body.items.map((t: { id: number }) => t.id)).toEqual([mine.body.id]);
    });

    it('deleting the integration deletes the tokens issued through it', async () => {
      const { account, create, integration } = await setup(server());
      await create();
      await server().services.oauthIntegrations.delete(account.id, integration.id);
      expect((await account.request({ method: 'GET', url: TOKENS, as: account.member })).body.items).toEqual([]);
    });
  });

  describe('authorisation', () => {
    authorizationSuite(server, cases);
  });
});
