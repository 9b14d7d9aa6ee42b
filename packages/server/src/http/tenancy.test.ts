import { expect, it, vi } from 'vitest';
import { openTestStoreAgain } from '../test-support/stores.js';
import { describeOnStores, TEST_BASE_DOMAIN } from '../test-support/server.js';

describeOnStores('tenancy from the Host header (DESIGN.md)', (server) => {
  const me = async (host: string, key: string) =>
    server().app.inject({ method: 'GET', url: '/api/v1/api-keys', headers: { host, authorization: `Api-Key ${key}` } });

  it('{tenant}.{base domain} reaches that account, with or without a port', async () => {
    const account = await server().newAccount();
    expect((await me(`${account.name}.${TEST_BASE_DOMAIN}`, account.admin.apiKey)).statusCode).toBe(200);
    expect((await me(`${account.name}.${TEST_BASE_DOMAIN}:4000`, account.admin.apiKey)).statusCode).toBe(200);
    expect((await me(`${account.name.toUpperCase()}.${TEST_BASE_DOMAIN}`, account.admin.apiKey)).statusCode).toBe(200);
  });

  it("another account's host does not accept this account's key", async () => {
    const account = await server().newAccount();
    const other = await server().newAccount();
    const response = await me(`${other.name}.${TEST_BASE_DOMAIN}`, account.admin.apiKey);
    expect(response.statusCode).toBe(401);
    expect(JSON.parse(response.body).error).toBe('Unknown API key');
  });

  it('a subdomain that names no account is 404, never another account', async () => {
    const account = await server().newAccount();
    const response = await me(`nobody-here.${TEST_BASE_DOMAIN}`, account.admin.apiKey);
    expect(response.statusCode).toBe(404);
    expect(JSON.parse(response.body).error).toContain('No account is served at');
  });

  it('a custom domain mapped to an account reaches it', async () => {
    const account = await server().newAccount();
    const domain = `analytics.${account.name}.example.org`;
    await server().store.db.updateTable('account').set({ custom_domain: domain }).where('id', '=', account.id).execute();
    server().services.accounts.forgetAll();
    expect((await me(domain, account.admin.apiKey)).statusCode).toBe(200);
  });

  it('a host whose account changes in this process is served the new way at once (the host cache is declared, not timed)', async () => {
    const account = await server().newAccount();
    const newHost = `${account.name}-renamed.${TEST_BASE_DOMAIN}`;
    expect((await me(newHost, account.admin.apiKey)).statusCode).toBe(404);
    expect((await me(`${account.name}.${TEST_BASE_DOMAIN}`, account.admin.apiKey)).statusCode).toBe(200);
    await server()
      .store.db.updateTable('account')
      .set({ name: `${account.name}-renamed` })
      .where('id', '=', account.id)
      .execute();
    expect((await me(newHost, account.admin.apiKey)).statusCode).toBe(200);
    expect((await me(`${account.name}.${TEST_BASE_DOMAIN}`, account.admin.apiKey)).statusCode).toBe(404);
  });

  it('a host that named no account names a new one at once', async () => {
    const name = `later-${Date.now().toString(36)}`;
    expect((await me(`${name}.${TEST_BASE_DOMAIN}`, 'none')).statusCode).toBe(404);
    await server().services.accounts.create(name);
    expect((await me(`${name}.${TEST_BASE_DOMAIN}`, 'none')).statusCode).toBe(401);
  });

  it.runIf(process.env.DATABASE_URL)('a custom domain mapped by another server reaches the account through NOTIFY', async () => {
    const { store } = server();
    if (store.kind !== 'postgres') return;
    const account = await server().newAccount();
    const domain = `elsewhere.${account.name}.example.org`;
    expect((await me(domain, account.admin.apiKey)).statusCode).toBe(421);
    const other = await openTestStoreAgain(store, 1);
    try {
      await other.db.updateTable('account').set({ custom_domain: domain }).where('id', '=', account.id).execute();
    } finally {
      await other.close();
    }
    // Well under the cache's 5 s backstop: only the NOTIFY can make it pass.
    await vi.waitFor(async () => expect((await me(domain, account.admin.apiKey)).statusCode).toBe(200), { timeout: 3_000, interval: 50 });
  });

  async function defaultAdminKey() {
    const { store, services, config } = server();
    let demo = await services.accounts.findByName(config.defaultTenant);
    demo ??= await services.accounts.create(config.defaultTenant);
    const user = await store.db
      .insertInto('app_user')
      .values({ account_id: demo.id, email: `root-${Date.now()}-${Math.random()}@demo.example.com`, role: 'admin' })
      .returning('id')
      .executeTakeFirstOrThrow();
    return (await services.credentials.createApiKey(demo.id, user.id, { name: 'k', role: 'admin', deploymentIds: null })).key;
  }

  it("the server's own names reach the default account: an IP address, localhost, the base domain itself", async () => {
    const key = await defaultAdminKey();
    for (const host of ['127.0.0.1:4000', '[::1]:4000', 'localhost', TEST_BASE_DOMAIN]) {
      expect((await me(host, key)).statusCode, host).toBe(200);
    }
  });

  it('issue 10, security 6: any other name is refused with 421 while health checks and the spec still answer', async () => {
    const key = await defaultAdminKey();
    for (const host of ['some-other-host.example.net', 'evil.example:4000', `${TEST_BASE_DOMAIN}.evil.example`]) {
      const response = await me(host, key);
      expect(response.statusCode, host).toBe(421);
      expect(JSON.parse(response.body)).toMatchObject({
        code: 'misdirected_request',
        error: `Unknown host "${host}": accounts are served at <account>.${TEST_BASE_DOMAIN}`,
      });
      const device = await server().app.inject({ method: 'POST', url: '/api/v1/auth/device/code', headers: { host }, payload: {} });
      expect(device.statusCode, host).toBe(421);
      for (const url of ['/healthz', '/readyz', '/api/v1/spec']) {
        expect((await server().app.inject({ method: 'GET', url, headers: { host } })).statusCode, `${url} on ${host}`).toBe(200);
      }
    }
  });
});

describeOnStores(
  'tenancy without a base domain',
  (server) => {
    it('any host reaches the default account', async () => {
      const { store, services, config } = server();
      const demo = (await services.accounts.findByName(config.defaultTenant)) ?? (await services.accounts.create(config.defaultTenant));
      const user = await store.db
        .insertInto('app_user')
        .values({ account_id: demo.id, email: 'root@demo.example.com', role: 'admin' })
        .returning('id')
        .executeTakeFirstOrThrow();
      const key = await services.credentials.createApiKey(demo.id, user.id, { name: 'k', role: 'admin', deploymentIds: null });
      for (const host of ['127.0.0.1:4000', 'localhost', 'some-other-host.example.net']) {
        const response = await server().app.inject({
          method: 'GET',
          url: '/api/v1/api-keys',
          headers: { host, authorization: `Api-Key ${key.key}` },
        });
        expect(response.statusCode, host).toBe(200);
      }
    });
  },
  { PLINTH_BASE_DOMAIN: '' },
);
