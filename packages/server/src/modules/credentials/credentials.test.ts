import { describe, expect, it } from 'vitest';
import { hashCredential } from '../../lib/secrets.js';
import { authorizationSuite } from '../../test-support/authorization.js';
import { describeOnStores, type TestAccount } from '../../test-support/server.js';
import { cases } from './authorization.cases.js';

async function createDeployment(account: TestAccount, name = 'prod') {
  const response = await account.request({ method: 'POST', url: '/api/v1/deployments', as: account.admin, body: { name } });
  expect(response.status, response.text).toBe(201);
  return response.body.id as number;
}

describeOnStores('credentials', (server) => {
  describe('API keys', () => {
    it('are shown once at creation, stored only as a hash, and never listed with their secret', async () => {
      const account = await server().newAccount();
      const created = await account.request({ method: 'POST', url: '/api/v1/api-keys', as: account.admin, body: { name: 'ci' } });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ name: 'ci', role: 'member', deploymentIds: null, revokedAt: null });
      expect(created.body.key).toMatch(/^sk-[A-Za-z0-9]{43}$/);
      expect(created.body.prefix).toBe(created.body.key.slice(0, 8));

      const row = await server().store.db.selectFrom('api_key').selectAll().where('id', '=', created.body.id).executeTakeFirstOrThrow();
      expect(row.key_hash).toBe(hashCredential(created.body.key));
      expect(JSON.stringify(row)).not.toContain(created.body.key);

      const list = await account.request({ method: 'GET', url: '/api/v1/api-keys', as: account.admin });
      expect(list.text).not.toContain(created.body.key);
      expect(list.body.items.map((k: { id: number }) => k.id)).toContain(created.body.id);

      const works = await account.request({ method: 'GET', url: '/api/v1/deployments', as: `Api-Key ${created.body.key}` });
      expect(works.status).toBe(200);
    });

    it('revoking stops the key at once, is idempotent and keeps it listed as revoked', async () => {
      const account = await server().newAccount();
      const user = await account.addUser('member');
      for (let i = 0; i < 2; i++) {
        const revoke = await account.request({ method: 'DELETE', url: `/api/v1/api-keys/${user.apiKeyId}`, as: account.admin });
        expect(revoke.status).toBe(204);
      }
      const rejected = await account.request({ method: 'GET', url: '/api/v1/deployments', as: user });
      expect(rejected.status).toBe(401);
      expect(rejected.body.error).toBe('The API key has been revoked');
      const list = await account.request({ method: 'GET', url: '/api/v1/api-keys', as: account.admin });
      const listed = list.body.items.find((k: { id: number }) => k.id === user.apiKeyId);
      expect(Date.parse(listed.revokedAt)).not.toBeNaN();
    });

    it('5 rule 1: a key scoped to deployments sees only those, and gets 403 for others', async () => {
      const account = await server().newAccount();
      const mine = await createDeployment(account, 'mine');
      const theirs = await createDeployment(account, 'theirs');
      const scoped = await account.request({
        method: 'POST',
        url: '/api/v1/api-keys',
        as: account.admin,
        body: { name: 'scoped', deploymentIds: [mine] },
      });
      expect(scoped.body.deploymentIds).toEqual([mine]);
      const as = `Api-Key ${scoped.body.key}`;
      const list = await account.request({ method: 'GET', url: '/api/v1/deployments', as });
      expect(list.body.items.map((d: { id: number }) => d.id)).toEqual([mine]);
      expect((await account.request({ method: 'GET', url: `/api/v1/deployments/${mine}`, as })).status).toBe(200);
      const denied = await account.request({ method: 'GET', url: `/api/v1/deployments/${theirs}`, as });
      expect(denied.status).toBe(403);
      expect(denied.body.error).toContain(`deployment ${theirs}`);
    });

    it("rejects a scope naming deployments that are not the account's", async () => {
      const account = await server().newAccount();
      const other = await server().newAccount();
      const foreign = await createDeployment(other);
      const response = await account.request({
        method: 'POST',
        url: '/api/v1/api-keys',
        as: account.admin,
        body: { name: 'x', deploymentIds: [foreign, 999999] },
      });
      expect(response.status).toBe(400);
      expect(response.body.error).toBe(`Deployments not found: ${foreign}, 999999`);
    });

    it('an admin key of a user demoted to member acts as a member', async () => {
      const account = await server().newAccount();
      const user = await account.addUser('admin');
      await server().store.db.updateTable('app_user').set({ role: 'member' }).where('id', '=', user.id).execute();
      const response = await account.request({ method: 'POST', url: '/api/v1/api-keys', as: user, body: { name: 'x' } });
      expect(response.status).toBe(403);
    });
  });

  describe('access tokens', () => {
    it('are accepted as Bearer until they expire, then get 401 saying so', async () => {
      const account = await server().newAccount();
      const { accessToken } = await server().services.credentials.issueAccessToken(account.id, account.admin.id);
      const ok = await account.request({ method: 'GET', url: '/api/v1/deployments', as: `Bearer ${accessToken}` });
      expect(ok.status).toBe(200);
      const expired = await server().services.credentials.issueAccessToken(account.id, account.admin.id, -1);
      const response = await account.request({ method: 'GET', url: '/api/v1/deployments', as: `Bearer ${expired.accessToken}` });
      expect(response.status).toBe(401);
      expect(response.body.error).toMatch(/expired/);
    });

    it('an API key sent as a bearer token is refused with a message saying how to send it', async () => {
      const account = await server().newAccount();
      const response = await account.request({ method: 'GET', url: '/api/v1/deployments', as: `Bearer ${account.admin.apiKey}` });
      expect(response.status).toBe(401);
      expect(response.body.error).toContain('Api-Key <key>');
    });

    it('an unsupported scheme is refused naming it', async () => {
      const account = await server().newAccount();
      const response = await account.request({ method: 'GET', url: '/api/v1/deployments', as: 'Basic dXNlcjpwYXNz' });
      expect(response.status).toBe(401);
      expect(response.body.error).toContain('"Basic"');
      expect(response.headers['www-authenticate']).toBeTruthy();
    });
  });

  describe('SCIM tokens', () => {
    it('are created (shown once), listed without the secret, refused on the platform API, and revoked', async () => {
      const account = await server().newAccount();
      const created = await account.request({ method: 'POST', url: '/api/v1/scim-tokens', as: account.admin, body: { name: 'okta' } });
      expect(created.status).toBe(201);
      expect(created.body.token).toMatch(/^scim_/);
      const list = await account.request({ method: 'GET', url: '/api/v1/scim-tokens', as: account.admin });
      expect(list.body.items).toHaveLength(1);
      expect(list.text).not.toContain(created.body.token);

      const onPlatform = await account.request({ method: 'GET', url: '/api/v1/deployments', as: `Bearer ${created.body.token}` });
      expect(onPlatform.status).toBe(401);
      expect(onPlatform.body.error).toMatch(/SCIM token is not accepted here/);

      const revoked = await account.request({ method: 'DELETE', url: `/api/v1/scim-tokens/${created.body.id}`, as: account.admin });
      expect(revoked.status).toBe(204);
      const again = await account.request({ method: 'GET', url: '/api/v1/scim-tokens', as: account.admin });
      expect(again.body.items[0].revokedAt).not.toBeNull();
    });
  });

  describe('authorisation', () => {
    authorizationSuite(server, cases);
  });
});
