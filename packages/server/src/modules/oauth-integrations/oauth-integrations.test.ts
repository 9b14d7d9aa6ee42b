import { sql } from 'kysely';
import { describe, expect, it, vi } from 'vitest';
import { openTestStoreAgain } from '../../test-support/stores.js';
import { authorizationSuite } from '../../test-support/authorization.js';
import { describeOnStores, type TestAccount } from '../../test-support/server.js';
import { cases, integration } from './authorization.cases.js';

async function createIntegration(account: TestAccount, body: Record<string, unknown> = integration) {
  const response = await account.request({ method: 'POST', url: '/api/v1/oauth-integrations', as: account.admin, body });
  expect(response.status, response.text).toBe(201);
  return response.body as { id: number };
}

describeOnStores('oauth integrations', (server) => {
  describe('4.1 getOAuthIntegration', () => {
    it('returns every field of 2.1 and never the client secret', async () => {
      const account = await server().newAccount();
      const { id } = await createIntegration(account);
      const response = await account.request({ method: 'GET', url: `/api/v1/oauth-integrations/${id}`, as: account.member });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        id,
        name: integration.name,
        type: integration.type,
        authUrl: integration.authUrl,
        tokenUrl: integration.tokenUrl,
        clientId: integration.clientId,
        redirectUri: integration.redirectUri,
        config: integration.config,
        scopes: integration.scopes,
        hasClientSecret: true,
      });
      expect(Date.parse(response.body.createdAt)).not.toBeNaN();
      expect(Date.parse(response.body.updatedAt)).not.toBeNaN();
      expect(response.text).not.toContain(integration.clientSecret);
    });

    it('stores the client secret encrypted, and can still read it back', async () => {
      const account = await server().newAccount();
      const { id } = await createIntegration(account);
      const row = await server().store.db.selectFrom('oauth_integration').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      expect(row.client_secret_encrypted).not.toContain(integration.clientSecret);
      expect(await server().services.oauthIntegrations.clientSecret(account.id, id)).toBe(integration.clientSecret);
    });

    it.each([
      ['a non-integer id', '/api/v1/oauth-integrations/abc', 400],
      ['a negative id', '/api/v1/oauth-integrations/-4', 400],
      ['a fractional id', '/api/v1/oauth-integrations/1.5', 400],
      ['a missing id', '/api/v1/oauth-integrations/999999', 404],
    ])('answers %s with %i', async (_label, url, status) => {
      const account = await server().newAccount();
      const response = await account.request({ method: 'GET', url, as: account.admin });
      expect(response.status).toBe(status);
      expect(response.body.error).toEqual(expect.any(String));
      expect(response.body.requestId).toBe(response.headers['x-request-id']);
    });

    it('config and scopes are optional and come back as null', async () => {
      const account = await server().newAccount();
      const { config: _c, scopes: _s, clientSecret: _x, ...minimal } = integration;
      const { id } = await createIntegration(account, minimal);
      const response = await account.request({ method: 'GET', url: `/api/v1/oauth-integrations/${id}`, as: account.admin });
      expect(response.body).toMatchObject({ config: null, scopes: null, hasClientSecret: false });
    });
  });

  describe('create, update, list and delete', () => {
    it.each([
      ['authUrl', 'ftp://example.com/auth'],
      ['tokenUrl', '/relative/token'],
      ['redirectUri', 'not a url'],
      ['authUrl', 'javascript:alert(1)'],
    ])('rejects %s = %j with 400 naming the field', async (field, value) => {
      const account = await server().newAccount();
      const response = await account.request({
        method: 'POST',
        url: '/api/v1/oauth-integrations',
        as: account.admin,
        body: { ...integration, [field]: value },
      });
      expect(response.status).toBe(400);
      expect(response.body.error).toContain(field);
    });

    it('rejects unknown fields and missing required ones', async () => {
      const account = await server().newAccount();
      const unknown = await account.request({
        method: 'POST',
        url: '/api/v1/oauth-integrations',
        as: account.admin,
        body: { ...integration, colour: 'red' },
      });
      expect(unknown.status).toBe(400);
      expect(unknown.body.error).toContain('colour');
      const { clientId: _omit, ...withoutClientId } = integration;
      const missing = await account.request({
        method: 'POST',
        url: '/api/v1/oauth-integrations',
        as: account.admin,
        body: withoutClientId,
      });
      expect(missing.status).toBe(400);
      expect(missing.body.error).toContain('clientId');
    });

    it('updates only the supplied fields and replaces the secret when given', async () => {
      const account = await server().newAccount();
      const { id } = await createIntegration(account);
      const response = await account.request({
        method: 'PATCH',
        url: `/api/v1/oauth-integrations/${id}`,
        as: account.admin,
        body: { name: 'Renamed', clientSecret: 'rotated' },
      });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ name: 'Renamed', clientId: integration.clientId, authUrl: integration.authUrl });
      expect(await server().services.oauthIntegrations.clientSecret(account.id, id)).toBe('rotated');
    });

    it('lists with cursor pagination and deletes', async () => {
      const account = await server().newAccount();
      const ids = [];
      for (let i = 0; i < 3; i++) ids.push((await createIntegration(account, { ...integration, name: `n${i}` })).id);
      const first = await account.request({ method: 'GET', url: '/api/v1/oauth-integrations?first=2', as: account.admin });
      expect(first.body.items.map((i: { id: number }) => i.id)).toEqual(ids.slice(0, 2));
      expect(first.body.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
      const second = await account.request({
        method: 'GET',
        url: `/api/v1/oauth-integrations?first=2&after=${first.body.pageInfo.endCursor}`,
        as: account.admin,
      });
      expect(second.body.items.map((i: { id: number }) => i.id)).toEqual(ids.slice(2));
      expect(second.body.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });

      const deleted = await account.request({ method: 'DELETE', url: `/api/v1/oauth-integrations/${ids[0]}`, as: account.admin });
      expect(deleted.status).toBe(204);
      const gone = await account.request({ method: 'GET', url: `/api/v1/oauth-integrations/${ids[0]}`, as: account.admin });
      expect(gone.status).toBe(404);
    });
  });

  describe('authorisation', () => {
    authorizationSuite(server, cases);
  });
});

describeOnStores('oauth integrations: remembered reads stay exact', (server) => {
  const get = (account: TestAccount, id: number) =>
    account.request({ method: 'GET', url: `/api/v1/oauth-integrations/${id}`, as: account.admin });

  it('an update or delete through the API is seen by the next read', async () => {
    const account = await server().newAccount();
    const { id } = await createIntegration(account);
    expect((await get(account, id)).body.name).toBe(integration.name);
    await account.request({ method: 'PATCH', url: `/api/v1/oauth-integrations/${id}`, as: account.admin, body: { name: 'Renamed' } });
    expect((await get(account, id)).body.name).toBe('Renamed');
    await account.request({ method: 'DELETE', url: `/api/v1/oauth-integrations/${id}`, as: account.admin });
    expect((await get(account, id)).status).toBe(404);
  });

  it('a change made outside this server (another replica, or SQL by hand) reaches it through NOTIFY', async () => {
    const account = await server().newAccount();
    const { id } = await createIntegration(account);
    expect((await get(account, id)).body.name).toBe(integration.name);
    const { store } = server();
    const rename = sql`update oauth_integration set name = 'Changed elsewhere' where id = ${id}`;
    if (store.kind === 'pglite') {
      await rename.execute(store.db); // raw SQL bypasses the in-process write watch: only NOTIFY can tell
    } else {
      const other = await openTestStoreAgain(store, 1);
      await rename.execute(other.db);
      await other.close();
    }
    // Under the 5 s lifetime of a remembered read: only the NOTIFY can make this pass.
    await vi.waitFor(async () => expect((await get(account, id)).body.name).toBe('Changed elsewhere'), { timeout: 3_000, interval: 50 });
  });
});
