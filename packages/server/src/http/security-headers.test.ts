import { expect, it } from 'vitest';
import { describeOnStores, type TestAccount, type TestServer } from '../test-support/server.js';

const form = (fields: Record<string, string>) => ({
  body: new URLSearchParams(fields).toString(),
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
});

type Call = (server: TestServer, account: TestAccount) => Promise<{ status: number; headers: Record<string, unknown> }>;

async function invite(account: TestAccount): Promise<string> {
  return (await account.request({ method: 'POST', url: `/api/v1/users/${account.member.id}/invites`, as: account.admin })).body.token;
}

async function embedSession(server: TestServer, account: TestAccount): Promise<string> {
  const deployment = await server.services.deployments.create(account.id, { name: 'd' }, 'http://localhost');
  const response = await account.request({
    method: 'POST',
    url: '/api/v1/embed/generate-session',
    as: account.admin,
    body: { deploymentId: deployment.id, externalId: 'ann' },
  });
  return response.body.sessionId;
}

/** Every operation whose response hands out a secret, with a request that reaches it. */
const SECRET_OPERATIONS: Record<string, Call> = {
  createApiKey: (_s, a) => a.request({ method: 'POST', url: '/api/v1/api-keys', as: a.admin, body: { name: 'k', role: 'member' } }),
  createScimToken: (_s, a) => a.request({ method: 'POST', url: '/api/v1/scim-tokens', as: a.admin, body: { name: 'idp' } }),
  createUserInvite: (_s, a) => a.request({ method: 'POST', url: `/api/v1/users/${a.member.id}/invites`, as: a.admin }),
  createDeviceCode: (_s, a) => a.request({ method: 'POST', url: '/api/v1/auth/device/code', body: {} }),
  createToken: async (s, a) => {
    const issued = await s.services.login.tokens.issue(a.id, a.member.id, 'test');
    return a.request({
      method: 'POST',
      url: '/api/v1/auth/token',
      body: { grant_type: 'refresh_token', refresh_token: issued.refresh_token },
    });
  },
  generateSession: async (s, a) => {
    const deployment = await s.services.deployments.create(a.id, { name: 'd' }, 'http://localhost');
    return a.request({
      method: 'POST',
      url: '/api/v1/embed/generate-session',
      as: a.admin,
      body: { deploymentId: deployment.id, externalId: 'ann' },
    });
  },
  postTokenBySessionId: async (s, a) =>
    a.request({ method: 'POST', url: '/api/v1/embed/session/token', body: { sessionId: await embedSession(s, a) } }),
  getDeviceVerificationPage: (_s, a) => a.request({ method: 'GET', url: '/login/device' }),
  submitDeviceVerification: (_s, a) =>
    a.request({
      method: 'POST',
      url: '/login/device',
      ...form({ user_code: 'BCDF-GHJK', email: 'x@example.com', password: 'p', decision: 'approve' }),
    }),
  // The embed pages (hidden from the spec, so named by route): each link's session is read by the page, once.
  'GET /embed/dashboard/:publicId': (_s, a) => a.request({ method: 'GET', url: '/embed/dashboard/abc?session=s' }),
  'GET /embed/chat': (_s, a) => a.request({ method: 'GET', url: '/embed/chat?sessionId=s' }),
  'GET /embed/d/:deploymentId/app': (_s, a) => a.request({ method: 'GET', url: '/embed/d/1/app?session=s' }),
  getInvitePage: async (_s, a) => a.request({ method: 'GET', url: `/login/invite?token=${await invite(a)}` }),
  submitInvite: async (_s, a) =>
    a.request({
      method: 'POST',
      url: '/login/invite',
      ...form({ token: await invite(a), password: 'a long password 1', confirm: 'a long password 1' }),
    }),
};

describeOnStores('security headers (issue 10, security 7)', (server) => {
  it('the routes that declare carriesSecret are exactly the listed operations', () => {
    expect([...server().app.secretOperations].sort()).toEqual(Object.keys(SECRET_OPERATIONS).sort());
  });

  it.each(Object.keys(SECRET_OPERATIONS))('%s answers with Cache-Control: no-store and nosniff', async (operation) => {
    const account = await server().newAccount();
    const response = await SECRET_OPERATIONS[operation]!(server(), account);
    // The device form's wrong sign-in still renders a page holding the code; the rest succeed.
    expect(response.status, operation).toBeLessThan(operation === 'submitDeviceVerification' ? 500 : 300);
    expect(response.headers['cache-control'], operation).toBe('no-store');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('every other kind of response carries nosniff, and no-store only where a secret is', async () => {
    const account = await server().newAccount();
    const responses = [
      await account.request({ method: 'GET', url: '/api/v1/api-keys', as: account.admin }),
      await account.request({ method: 'GET', url: '/api/v1/api-keys', as: 'Api-Key sk-wrong' }),
      await account.request({ method: 'GET', url: '/no/such/route' }),
      await account.request({ method: 'POST', url: '/api/v1/deployments', as: account.admin, body: { nope: 1 } }),
      await account.request({ method: 'GET', url: '/api/scim/v2/Users', as: 'Bearer nope' }),
      await account.request({ method: 'GET', url: '/healthz' }),
      await account.request({ method: 'GET', url: '/api/v1/spec' }),
      await account.request({ method: 'GET', url: '/api/v1/api-keys', as: account.admin, headers: { host: 'evil.example' } }),
    ];
    for (const response of responses) {
      expect(response.headers['x-content-type-options'], `${response.status} ${response.text.slice(0, 80)}`).toBe('nosniff');
      expect(response.headers['cache-control']).not.toBe('no-store');
    }
  });
});
