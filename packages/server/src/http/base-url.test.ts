import { describe, expect, it } from 'vitest';
import { describeOnStores, TEST_BASE_DOMAIN, testConfig, type TestServer } from '../test-support/server.js';
import { accountBaseUrl } from './base-url.js';

/** The default account, which every host reaches when no base domain is set, with an admin key. */
async function defaultAccountAdmin(server: TestServer) {
  const { services, config } = server;
  const account = (await services.accounts.findByName(config.defaultTenant)) ?? (await services.accounts.create(config.defaultTenant));
  const user = await services.users.create(account.id, {
    email: `admin-${Math.random().toString(36).slice(2)}@demo.example.com`,
    role: 'admin',
    displayName: null,
  });
  const key = await services.credentials.createApiKey(account.id, user.id, { name: 'k', role: 'admin', deploymentIds: null });
  return { account, userId: user.id, key: key.key };
}

/** Every link the server generates, asked for with the given Host header. */
async function generatedUrls(server: TestServer, host: string, apiKey: string, userId: number) {
  const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const response = await server.app.inject({
      method,
      url,
      headers: { host, authorization: `Api-Key ${apiKey}` },
      ...(payload ? { payload } : {}),
    });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return JSON.parse(response.body);
  };
  const deployment = await call('POST', '/api/v1/deployments', { name: 'links' });
  const listed = await call('GET', '/api/v1/deployments');
  const device = await call('POST', '/api/v1/auth/device/code', {});
  const invite = await call('POST', `/api/v1/users/${userId}/invites`);
  return {
    created: deployment.deploymentUrl as string,
    fetched: (await call('GET', `/api/v1/deployments/${deployment.id}`)).deploymentUrl as string,
    listed: listed.items[0].deploymentUrl as string,
    verification: device.verification_uri as string,
    verificationComplete: device.verification_uri_complete as string,
    invite: invite.url as string,
    deploymentId: deployment.id as number,
  };
}

describeOnStores(
  'generated URLs use PLINTH_PUBLIC_URL, never the Host header (issue 10, security 6)',
  (server) => {
    it.each(['evil.example', 'evil.example:8443', '203.0.113.9'])('with Host %s', async (host) => {
      const { key, userId } = await defaultAccountAdmin(server());
      const urls = await generatedUrls(server(), host, key, userId);
      expect(urls.created).toBe(`https://plinth.example.com/d/${urls.deploymentId}`);
      expect(urls.fetched).toBe(urls.created);
      expect(urls.listed).toMatch(/^https:\/\/plinth\.example\.com\/d\/\d+$/);
      expect(urls.verification).toBe('https://plinth.example.com/login/device');
      expect(urls.verificationComplete).toMatch(/^https:\/\/plinth\.example\.com\/login\/device\?user_code=/);
      expect(urls.invite).toMatch(/^https:\/\/plinth\.example\.com\/login\/invite\?token=pli_/);
    });
  },
  { PLINTH_BASE_DOMAIN: '', PLINTH_PUBLIC_URL: 'https://plinth.example.com/' },
);

describeOnStores(
  'generated URLs of an account under a base domain ignore the Host header (issue 10, security 6)',
  (server) => {
    it.each([':6666', '.', ''])('with Host <account>.%s variations', async (suffix) => {
      const account = await server().newAccount();
      const host = suffix === '.' ? `${account.name.toUpperCase()}.${TEST_BASE_DOMAIN}` : `${account.name}.${TEST_BASE_DOMAIN}${suffix}`;
      const urls = await generatedUrls(server(), host, account.admin.apiKey, account.member.id);
      const base = `https://${account.name}.${TEST_BASE_DOMAIN}`;
      // The deployment's own host under the base domain, in the public URL's scheme.
      expect(urls.created).toBe(`https://links-${urls.deploymentId}.${TEST_BASE_DOMAIN}`);
      expect(urls.verification).toBe(`${base}/login/device`);
      expect(urls.invite.startsWith(`${base}/login/invite?token=`)).toBe(true);
    });
  },
  { PLINTH_PUBLIC_URL: 'https://plinth.test' },
);

describe('accountBaseUrl', () => {
  const account = { name: 'acme', custom_domain: null };
  it.each([
    ['no base domain, no public URL', {}, account, 'http://127.0.0.1:4000'],
    ['a wildcard bind', { HOST: '0.0.0.0', PORT: '8080' }, account, 'http://localhost:8080'],
    ['an IPv6 bind', { HOST: '::1' }, account, 'http://[::1]:4000'],
    ['a public URL', { PLINTH_PUBLIC_URL: 'https://Plinth.Example.com:8443' }, account, 'https://plinth.example.com:8443'],
    ['a base domain', { PLINTH_BASE_DOMAIN: 'plinth.example.com' }, account, 'http://acme.plinth.example.com'],
    [
      'a base domain and a public URL',
      { PLINTH_BASE_DOMAIN: 'plinth.example.com', PLINTH_PUBLIC_URL: 'https://plinth.example.com' },
      account,
      'https://acme.plinth.example.com',
    ],
    [
      'a base domain and a public URL with a port',
      { PLINTH_BASE_DOMAIN: 'plinth.example.com', PLINTH_PUBLIC_URL: 'https://plinth.example.com:8443' },
      account,
      'https://acme.plinth.example.com:8443',
    ],
    [
      'a custom domain',
      { PLINTH_BASE_DOMAIN: 'plinth.example.com', PLINTH_PUBLIC_URL: 'https://x.example' },
      { name: 'acme', custom_domain: 'bi.acme.org' },
      'https://bi.acme.org',
    ],
  ])('%s', (_label, env, row, expected) => {
    expect(accountBaseUrl(testConfig({ PLINTH_BASE_DOMAIN: '', ...env }), row)).toBe(expected);
  });

  it('refuses a public URL with a path, query or another scheme', () => {
    for (const bad of ['ftp://x.example', 'https://x.example/app', 'https://x.example?a=1', 'not a url']) {
      expect(() => testConfig({ PLINTH_PUBLIC_URL: bad }), bad).toThrow(/Invalid setting PLINTH_PUBLIC_URL/);
    }
  });
});
