import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeOnStores, type TestAccount, type TestServer } from '../../test-support/server.js';
import { startStandInIssuer, type StandInIssuer } from './test-fixtures.js';

const EXCHANGE = '/api/v1/oidc/token';
const GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ID_TOKEN = 'urn:ietf:params:oauth:token-type:id_token';

let issuer: StandInIssuer;
beforeAll(async () => {
  issuer = await startStandInIssuer();
});
afterAll(async () => {
  await issuer.close();
});

async function setup(server: TestServer, config: Record<string, unknown> = {}) {
  const account = await server.newAccount();
  const created = await account.request({
    method: 'POST',
    url: '/api/v1/oidc-token-configs',
    as: account.admin,
    body: { name: 'local', issuer: issuer.issuer, audiences: [issuer.audience], algorithms: ['RS256', 'ES256'], ...config },
  });
  expect(created.status, created.text).toBe(201);
  const exchange = (subjectToken: string, extra: Record<string, string> = {}) =>
    account.request({
      method: 'POST',
      url: EXCHANGE,
      body: { grant_type: GRANT, subject_token: subjectToken, subject_token_type: ID_TOKEN, ...extra },
    });
  return { account, configId: created.body.id as number, exchange };
}

const whoami = (account: TestAccount, token: string) =>
  account.request({ method: 'GET', url: '/api/v1/auth/whoami', as: `Bearer ${token}` });

describeOnStores('exchangeOidcToken', (server) => {
  describe('a valid ID token of a trusted issuer', () => {
    it('becomes an access token of the user its e-mail names (RFC 8693 answer, no-store)', async () => {
      const { account, exchange } = await setup(server());
      const response = await exchange(await issuer.sign({ sub: 'u-1', email: account.member.email.toUpperCase(), email_verified: true }));
      expect(response.status, response.text).toBe(200);
      expect(response.body).toEqual({
        access_token: expect.stringMatching(/^pla_/),
        issued_token_type: 'urn:ietf:params:oauth:token-type:access_token',
        token_type: 'Bearer',
        expires_in: 3600,
      });
      expect(response.headers['cache-control']).toBe('no-store');
      const me = await whoami(account, response.body.access_token);
      expect(me.status, me.text).toBe(200);
      expect(JSON.stringify(me.body)).toContain(account.member.email);
    });

    it('accepts a form body, ES256, and the jwt token type', async () => {
      const { account } = await setup(server());
      const token = await issuer.sign({ email: account.admin.email }, { alg: 'ES256' });
      const form = new URLSearchParams({
        grant_type: GRANT,
        subject_token: token,
        subject_token_type: 'urn:ietf:params:oauth:token-type:jwt',
        client_id: 'ignored',
      });
      const response = await account.request({
        method: 'POST',
        url: EXCHANGE,
        body: form.toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(response.status, response.text).toBe(200);
      expect((await whoami(account, response.body.access_token)).status).toBe(200);
    });

    it('with userClaim sub, matches the user whose externalId is the subject', async () => {
      const { account, exchange } = await setup(server(), { userClaim: 'sub' });
      await server().store.db.updateTable('app_user').set({ external_id: 'okta-42' }).where('id', '=', account.member.id).execute();
      const ok = await exchange(await issuer.sign({ sub: 'okta-42', email: 'someone-else@example.com' }));
      expect(ok.status, ok.text).toBe(200);
      const other = await exchange(await issuer.sign({ sub: 'okta-43', email: account.member.email }));
      expect(other.body).toEqual({ error: 'invalid_grant', error_description: 'No active user of this account matches the subject token' });
    });

    it('reads the keys from the discovery document when no jwksUri is configured, and keeps them', async () => {
      const { account, exchange } = await setup(server());
      const before = issuer.requests.length;
      for (let i = 0; i < 3; i++) expect((await exchange(await issuer.sign({ email: account.member.email }))).status).toBe(200);
      // At most one discovery and one key fetch for three exchanges (none when another test fetched them).
      expect(issuer.requests.length - before).toBeLessThanOrEqual(2);
    });

    it('uses the configured jwksUri', async () => {
      const { account, exchange } = await setup(server(), { jwksUri: issuer.jwksUri });
      expect((await exchange(await issuer.sign({ email: account.member.email }))).status).toBe(200);
    });
  });

  describe('refusals, in OAuth error shape', () => {
    const refused = (description: RegExp | string, error = 'invalid_grant') => ({
      error,
      error_description: typeof description === 'string' ? description : expect.stringMatching(description),
    });

    it.each([
      ['an expired token', { expiresIn: -120 }, /has expired/],
      ['a token not valid yet', { notBefore: 600 }, /nbf/],
      ['another audience', { audience: 'someone-else' }, /aud/],
      ['a signature of another key', { foreignKey: true }, /signature does not verify/],
      ['no exp', { noExpiry: true }, /exp/],
    ])('%s', async (_label, options, description) => {
      const { account, exchange } = await setup(server());
      const response = await exchange(await issuer.sign({ email: account.member.email }, options));
      expect(response.status).toBe(400);
      expect(response.body).toEqual(refused(description));
    });

    it('an algorithm the config does not allow', async () => {
      const { account, exchange } = await setup(server(), { algorithms: ['RS256'] });
      const response = await exchange(await issuer.sign({ email: account.member.email }, { alg: 'ES256' }));
      expect(response.body).toEqual(refused(/algorithm this config does not allow/));
    });

    it('an issuer the account does not trust, or a disabled config, or a config of another account', async () => {
      const { account, configId, exchange } = await setup(server());
      const token = await issuer.sign({ email: account.member.email });
      const untrusted = await exchange(await issuer.sign({ email: account.member.email }, { issuer: 'https://elsewhere.example.com' }));
      expect(untrusted.body).toEqual(refused('The subject token was issued by an issuer this account does not trust'));
      await account.request({
        method: 'PATCH',
        url: `/api/v1/oidc-token-configs/${configId}`,
        as: account.admin,
        body: { enabled: false },
      });
      expect((await exchange(token)).body).toEqual(refused(/does not trust/));
      const stranger = await server().newAccount();
      const foreign = await stranger.request({
        method: 'POST',
        url: EXCHANGE,
        body: { grant_type: GRANT, subject_token: token, subject_token_type: ID_TOKEN },
      });
      expect(foreign.body).toEqual(refused(/does not trust/));
    });

    it('a missing, deactivated or unverified user: the same answer for missing and deactivated', async () => {
      const { account, exchange } = await setup(server());
      const missing = await exchange(await issuer.sign({ email: 'nobody@example.com' }));
      await server().store.db.updateTable('app_user').set({ active: false }).where('id', '=', account.member.id).execute();
      const inactive = await exchange(await issuer.sign({ email: account.member.email }));
      expect(inactive.body).toEqual(missing.body);
      expect(missing.status).toBe(400);
      const unverified = await exchange(await issuer.sign({ email: account.admin.email, email_verified: false }));
      expect(unverified.body).toEqual(refused(/not verified/));
    });

    it.each([
      [{ grant_type: undefined }, 'invalid_request', /grant_type is required/],
      [{ grant_type: 'password' }, 'unsupported_grant_type', /Unsupported grant_type "password"/],
      [{ subject_token: undefined }, 'invalid_request', /subject_token is required/],
      [{ subject_token_type: 'urn:ietf:params:oauth:token-type:saml2' }, 'invalid_request', /subject_token_type must be/],
      [{ requested_token_type: 'urn:ietf:params:oauth:token-type:refresh_token' }, 'invalid_request', /requested_token_type/],
      [{ subject_token: 'not-a-jwt' }, 'invalid_grant', /not a JWT/],
    ])('a malformed request %j', async (change, error, description) => {
      const { account } = await setup(server());
      const body = {
        grant_type: GRANT,
        subject_token: await issuer.sign({ email: account.member.email }),
        subject_token_type: ID_TOKEN,
        ...change,
      };
      const response = await account.request({ method: 'POST', url: EXCHANGE, body });
      expect(response.status).toBe(400);
      expect(response.body).toEqual(refused(description, error));
    });

    it('an issuer whose keys cannot be fetched is 502 temporarily_unavailable', async () => {
      const { account, exchange } = await setup(server(), { jwksUri: 'http://127.0.0.1:1/jwks' });
      const response = await exchange(await issuer.sign({ email: account.member.email }));
      expect(response.status, response.text).toBe(502);
      expect(response.body.error).toBe('temporarily_unavailable');
    });
  });
});
