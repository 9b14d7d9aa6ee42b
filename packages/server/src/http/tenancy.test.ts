import { expect, it } from 'vitest';
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
    server().services.accounts.forgetCachedHosts();
    expect((await me(domain, account.admin.apiKey)).statusCode).toBe(200);
  });

  it('any other host reaches the default account', async () => {
    const { store, services, config } = server();
    let demo = await services.accounts.findByName(config.defaultTenant);
    demo ??= await services.accounts.create(config.defaultTenant);
    const user = await store.db
      .insertInto('app_user')
      .values({ account_id: demo.id, email: `root-${Date.now()}@demo.example.com`, role: 'admin' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const key = await services.credentials.createApiKey(demo.id, user.id, { name: 'k', role: 'admin', deploymentIds: null });
    for (const host of ['127.0.0.1:4000', 'localhost', 'some-other-host.example.net']) {
      expect((await me(host, key.key)).statusCode, host).toBe(200);
    }
  });
});

