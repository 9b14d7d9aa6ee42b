import { describe, expect, it } from 'vitest';
import { authorizationSuite } from '../../test-support/authorization.js';
import { describeOnStores, type TestAccount } from '../../test-support/server.js';
import { cases } from './authorization.cases.js';

const refresh = (account: TestAccount, token: string) =>
  account.request({ method: 'POST', url: '/api/v1/auth/token', body: { grant_type: 'refresh_token', refresh_token: token } });
const whoami = (account: TestAccount, token: string) =>
  account.request({ method: 'GET', url: '/api/v1/auth/whoami', as: `Bearer ${token}` });

describeOnStores('login: tokens, passwords, invites and whoami', (server) => {
  const login = async (account: TestAccount) => server().services.login.tokens.issue(account.id, account.member.id, 'test');

  describe('5 rule 3: refresh tokens rotate', () => {
    it('a refresh returns a new pair and retires the old one', async () => {
      const account = await server().newAccount();
      const first = await login(account);
      const second = await refresh(account, first.refresh_token);
      expect(second.status, second.text).toBe(200);
      expect(second.body.refresh_token).not.toBe(first.refresh_token);
      expect((await whoami(account, second.body.access_token)).status).toBe(200);
      expect((await whoami(account, first.access_token)).status).toBe(401);
    });

    it('reusing a rotated refresh token revokes the whole login', async () => {
      const account = await server().newAccount();
      const first = await login(account);
      const second = await refresh(account, first.refresh_token);
      const replay = await refresh(account, first.refresh_token);
      expect(replay.status).toBe(400);
      expect(replay.body.error).toBe('invalid_grant');
      expect(replay.body.error_description).toMatch(/already used or revoked/);
      expect((await whoami(account, second.body.access_token)).status).toBe(401);
      expect((await refresh(account, second.body.refresh_token)).body.error).toBe('invalid_grant');
    });

    it('an expired access token is refused with a hint, and a refresh renews it', async () => {
      const account = await server().newAccount();
      const first = await login(account);
      await server()
        .store.db.updateTable('access_token')
        .set({ expires_at: new Date(Date.now() - 1000) })
        .where('account_id', '=', account.id)
        .execute();
      const expired = await whoami(account, first.access_token);
      expect(expired.status).toBe(401);
      expect(expired.body.error).toMatch(/expired/);
      const renewed = await refresh(account, first.refresh_token);
      expect((await whoami(account, renewed.body.access_token)).status).toBe(200);
    });

    it('revoke (logout) ends the login, and unknown tokens are accepted silently', async () => {
      const account = await server().newAccount();
      const tokens = await login(account);
      const revoked = await account.request({ method: 'POST', url: '/api/v1/auth/revoke', body: { token: tokens.refresh_token } });
      expect(revoked.status).toBe(200);
      expect((await whoami(account, tokens.access_token)).status).toBe(401);
      expect((await refresh(account, tokens.refresh_token)).body.error).toBe('invalid_grant');
      const unknown = await account.request({ method: 'POST', url: '/api/v1/auth/revoke', body: { token: 'plr_nothing' } });
      expect(unknown.status).toBe(200);
    });
  });

  describe('passwords and invites', () => {
    it('setUserPassword: too short is 400; an unknown user is 404', async () => {
      const account = await server().newAccount();
      const short = await account.request({
        method: 'PUT',
        url: `/api/v1/users/${account.member.id}/password`,
        as: account.admin,
        body: { password: 'short' },
      });
      expect(short.status).toBe(400);
      expect(short.body.error).toMatch(/password/);
      const missing = await account.request({
        method: 'PUT',
        url: '/api/v1/users/999999/password',
        as: account.admin,
        body: { password: 'long enough password' },
      });
      expect(missing.status).toBe(404);
      const row = await server()
        .store.db.selectFrom('app_user')
        .select('password_hash')
        .where('id', '=', account.member.id)
        .executeTakeFirstOrThrow();
      expect(row.password_hash).toBeNull();
    });

    it('an invite link sets a password once, through the page or the API', async () => {
      const account = await server().newAccount();
      const invite = await account.request({ method: 'POST', url: `/api/v1/users/${account.member.id}/invites`, as: account.admin });
      expect(invite.status, invite.text).toBe(201);
      expect(invite.body.url).toBe(`http://${account.host}/login/invite?token=${invite.body.token}`);
      const page = await account.request({ method: 'GET', url: new URL(invite.body.url).pathname + new URL(invite.body.url).search });
      expect(page.status).toBe(200);
      expect(page.text).toContain(account.member.email);

      const mismatch = await account.request({
        method: 'POST',
        url: '/login/invite',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: invite.body.token, password: 'a fine password', confirm: 'another one!!' }).toString(),
      });
      expect(mismatch.status).toBe(400);
      expect(mismatch.text).toContain('The two passwords differ');
      const accepted = await account.request({
        method: 'POST',
        url: '/api/v1/auth/invites/accept',
        body: { token: invite.body.token, password: 'a fine password' },
      });
      expect(accepted.status, accepted.text).toBe(204);
      const again = await account.request({
        method: 'POST',
        url: '/api/v1/auth/invites/accept',
        body: { token: invite.body.token, password: 'a fine password' },
      });
      expect(again.status).toBe(400);
      expect(again.body.error).toMatch(/already been used/);
      await expect(
        server().services.login.signIn.authenticate(account.id, account.member.email, 'a fine password', '192.0.2.1'),
      ).resolves.toMatchObject({ id: account.member.id });
    });

    it('the stored password is an scrypt hash, never the password', async () => {
      const account = await server().newAccount();
      await server().services.login.signIn.setPassword(account.id, account.admin.id, 'correct horse battery');
      const row = await server()
        .store.db.selectFrom('app_user')
        .select('password_hash')
        .where('id', '=', account.admin.id)
        .executeTakeFirstOrThrow();
      expect(row.password_hash).toMatch(/^scrypt\$16384\$8\$1\$/);
      expect(row.password_hash).not.toContain('horse');
    });
  });

  it('getWhoAmI describes an API key', async () => {
    const account = await server().newAccount();
    const me = await account.request({ method: 'GET', url: '/api/v1/auth/whoami', as: account.admin });
    expect(me.body).toMatchObject({
      account: { id: account.id, name: account.name },
      user: { id: account.admin.id, email: account.admin.email },
      credential: { kind: 'apiKey', id: account.admin.apiKeyId, name: 'admin key', prefix: account.admin.apiKey.slice(0, 8) },
      role: 'admin',
      deploymentIds: null,
    });
  });

  describe('authorisation', () => {
    authorizationSuite(server, cases);
  });
});
