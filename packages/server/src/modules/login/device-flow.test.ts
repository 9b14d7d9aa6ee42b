import { describe, expect, it } from 'vitest';
import { describeOnStores, type TestAccount, type TestServer } from '../../test-support/server.js';
import { DEVICE_CODE_GRANT } from './schemas.js';

const PASSWORD = 'correct horse battery';
const form = (fields: Record<string, string>) => ({
  body: new URLSearchParams(fields).toString(),
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
});

export async function startDevice(account: TestAccount) {
  const response = await account.request({ method: 'POST', url: '/api/v1/auth/device/code', body: { client_name: 'test' } });
  expect(response.status, response.text).toBe(200);
  return response.body as { device_code: string; user_code: string; verification_uri: string; interval: number };
}

export async function poll(account: TestAccount, deviceCode: string) {
  return account.request({ method: 'POST', url: '/api/v1/auth/token', body: { grant_type: DEVICE_CODE_GRANT, device_code: deviceCode } });
}

export async function decide(account: TestAccount, userCode: string, email: string, password: string, decision = 'approve') {
  return account.request({ method: 'POST', url: '/login/device', ...form({ user_code: userCode, email, password, decision }) });
}

async function withPassword(server: TestServer, account: TestAccount) {
  const response = await account.request({
    method: 'PUT',
    url: `/api/v1/users/${account.member.id}/password`,
    as: account.admin,
    body: { password: PASSWORD },
  });
  expect(response.status, response.text).toBe(204);
  return account.member;
}

describeOnStores('login: device authorization grant (RFC 8628)', (server) => {
  it('5 rule 3: pending, slow_down, approval on the verification page, tokens, then the code is spent', async () => {
    const account = await server().newAccount();
    const user = await withPassword(server(), account);
    const device = await startDevice(account);
    expect(device.user_code).toMatch(/^[B-Z]{4}-[B-Z]{4}$/);
    expect(device.verification_uri).toBe(`http://${account.host}/login/device`);

    const pending = await poll(account, device.device_code);
    expect(pending.status).toBe(400);
    expect(pending.body.error).toBe('authorization_pending');
    const fast = await poll(account, device.device_code);
    expect(fast.body.error).toBe('slow_down');

    const page = await account.request({ method: 'GET', url: `/login/device?user_code=${device.user_code}` });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.text).toContain(`value="${device.user_code}"`);
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");

    const wrong = await decide(account, device.user_code, user.email, 'not the password');
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain('Wrong e-mail or password');
    const approved = await decide(account, device.user_code.toLowerCase(), user.email.toUpperCase(), PASSWORD);
    expect(approved.status, approved.text).toBe(200);
    expect(approved.text).toContain('Device approved');

    const tokens = await poll(account, device.device_code);
    expect(tokens.status, tokens.text).toBe(200);
    expect(tokens.body).toMatchObject({
      token_type: 'Bearer',
      access_token: expect.stringMatching(/^pla_/),
      refresh_token: expect.stringMatching(/^plr_/),
    });
    const me = await account.request({ method: 'GET', url: '/api/v1/auth/whoami', as: `Bearer ${tokens.body.access_token}` });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ user: { id: user.id, email: user.email }, credential: { kind: 'accessToken' }, role: 'member' });

    const again = await poll(account, device.device_code);
    expect(again.body.error).toBe('invalid_grant');
  });

  it('a denied request answers access_denied', async () => {
    const account = await server().newAccount();
    const user = await withPassword(server(), account);
    const device = await startDevice(account);
    expect((await decide(account, device.user_code, user.email, PASSWORD, 'deny')).text).toContain('Device denied');
    expect((await poll(account, device.device_code)).body.error).toBe('access_denied');
  });

  it('an expired device code answers expired_token and can no longer be approved', async () => {
    const account = await server().newAccount();
    const user = await withPassword(server(), account);
    const device = await startDevice(account);
    await server()
      .store.db.updateTable('device_authorization')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('account_id', '=', account.id)
      .execute();
    expect((await poll(account, device.device_code)).body.error).toBe('expired_token');
    const late = await decide(account, device.user_code, user.email, PASSWORD);
    expect(late.status).toBe(404);
    expect(late.text).toContain('unknown, expired or already used');
  });

  it('a user without a password cannot sign in, and a code of another account is unknown', async () => {
    const account = await server().newAccount();
    const device = await startDevice(account);
    const refused = await decide(account, device.user_code, account.admin.email, 'whatever password');
    expect(refused.status).toBe(401);
    expect(refused.text).toContain('Wrong e-mail or password');
    const other = await server().newAccount();
    expect((await poll(other, device.device_code)).body.error).toBe('invalid_grant');
  });

  it('rejects unknown grant types and missing fields in the OAuth error shape', async () => {
    const account = await server().newAccount();
    const unsupported = await account.request({ method: 'POST', url: '/api/v1/auth/token', ...form({ grant_type: 'password' }) });
    expect(unsupported.status).toBe(400);
    expect(unsupported.body).toEqual({ error: 'unsupported_grant_type', error_description: 'Unsupported grant_type "password"' });
    const missing = await account.request({ method: 'POST', url: '/api/v1/auth/token', body: { grant_type: 'refresh_token' } });
    expect(missing.body.error).toBe('invalid_request');
  });
});

describe('user codes', () => {
  it('are normalised from what people type', async () => {
    const { normalizeUserCode, formatUserCode } = await import('./device.js');
    expect(normalizeUserCode(' bcdf-ghjk ')).toBe('BCDFGHJK');
    expect(formatUserCode('BCDFGHJK')).toBe('BCDF-GHJK');
  });
});
