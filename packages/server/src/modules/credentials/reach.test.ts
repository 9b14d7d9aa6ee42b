import { describe, expect, it } from 'vitest';
import { describeOnStores, type TestAccount } from '../../test-support/server.js';

/** Issue 10, security 1 and 3: no credential reaches further than the one that made it. */
describeOnStores('credential reach', (server) => {
  const deployment = async (account: TestAccount, name: string) => {
    const response = await account.request({ method: 'POST', url: '/api/v1/deployments', as: account.admin, body: { name } });
    expect(response.status, response.text).toBe(201);
    return response.body.id as number;
  };
  const key = async (account: TestAccount, body: Record<string, unknown>) => {
    const response = await account.request({ method: 'POST', url: '/api/v1/api-keys', as: account.admin, body: { name: 'k', ...body } });
    expect(response.status, response.text).toBe(201);
    return { id: response.body.id as number, as: `Api-Key ${response.body.key}` };
  };
  /** An account with deployments a and b, and an admin key scoped to a. */
  const scopedSetup = async () => {
    const account = await server().newAccount();
    const a = await deployment(account, 'a');
    const b = await deployment(account, 'b');
    const scoped = await key(account, { role: 'admin', deploymentIds: [a] });
    return { account, a, b, scoped };
  };

  describe('a key scoped to one deployment creating API keys', () => {
    it.each([
      ['no deploymentIds (every deployment)', () => ({ role: 'admin' }), /cannot create an API key for every deployment/],
      ['deploymentIds null', () => ({ role: 'admin', deploymentIds: null }), /for every deployment/],
      ['another deployment', (ids: { a: number; b: number }) => ({ deploymentIds: [ids.b] }), /for deployments \d+$/],
      ['its own and another', (ids: { a: number; b: number }) => ({ deploymentIds: [ids.a, ids.b] }), /for deployments \d+$/],
      ['a deployment that does not exist', () => ({ deploymentIds: [2_000_000_000] }), /for deployments 2000000000/],
    ])('is refused with 403 for %s', async (_, body, message) => {
      const { account, a, b, scoped } = await scopedSetup();
      const response = await account.request({
        method: 'POST',
        url: '/api/v1/api-keys',
        as: scoped.as,
        body: { name: 'x', ...body({ a, b }) },
      });
      expect(response.status, response.text).toBe(403);
      expect(response.body.error).toMatch(message);
      expect(response.body.error).toContain(`limited to deployments ${a}`);
      const rows = await server().store.db.selectFrom('api_key').select('id').where('account_id', '=', account.id).execute();
      expect(rows).toHaveLength(3); // admin, member and the scoped key: nothing was created
    });

    it('may create a key with the same or a narrower scope', async () => {
      const { account, a, scoped } = await scopedSetup();
      const response = await account.request({
        method: 'POST',
        url: '/api/v1/api-keys',
        as: scoped.as,
        body: { name: 'x', role: 'admin', deploymentIds: [a] },
      });
      expect(response.status, response.text).toBe(201);
      expect(response.body.deploymentIds).toEqual([a]);
    });
  });

  it('a key never creates a key with a role above its own (an admin key of a demoted user acts as a member)', async () => {
    const account = await server().newAccount();
    const user = await account.addUser('admin');
    await server().store.db.updateTable('app_user').set({ role: 'member' }).where('id', '=', user.id).execute();
    const response = await account.request({ method: 'POST', url: '/api/v1/api-keys', as: user, body: { name: 'x', role: 'admin' } });
    expect(response.status).toBe(403);
  });

  it('a scoped key lists and revokes only keys within its scope, and gets 403 for any other id', async () => {
    const { account, a, b, scoped } = await scopedSetup();
    const narrower = await key(account, { deploymentIds: [a] });
    const elsewhere = await key(account, { deploymentIds: [b] });
    const list = await account.request({ method: 'GET', url: '/api/v1/api-keys', as: scoped.as });
    expect(list.status).toBe(200);
    expect(list.body.items.map((k: { id: number }) => k.id).sort()).toEqual([scoped.id, narrower.id].sort());

    for (const id of [account.admin.apiKeyId, elsewhere.id, 2_000_000_000]) {
      const response = await account.request({ method: 'DELETE', url: `/api/v1/api-keys/${id}`, as: scoped.as });
      expect(response.status, `key ${id}`).toBe(403);
      expect(response.body.error).toBe(`This credential may not revoke API key ${id}: it reaches more than this credential does`);
    }
    expect((await account.request({ method: 'GET', url: '/api/v1/deployments', as: account.admin })).status).toBe(200);
    expect((await account.request({ method: 'DELETE', url: `/api/v1/api-keys/${narrower.id}`, as: scoped.as })).status).toBe(204);
    // An unscoped admin still gets 404 for a key that does not exist.
    expect((await account.request({ method: 'DELETE', url: '/api/v1/api-keys/2000000000', as: account.admin })).status).toBe(404);
  });

  it.each([
    ['create a SCIM token', 'POST', () => '/api/v1/scim-tokens', { name: 't' }],
    ['list SCIM tokens', 'GET', () => '/api/v1/scim-tokens', undefined],
    ['revoke a SCIM token', 'DELETE', (ids: Ids) => `/api/v1/scim-tokens/${ids.scimTokenId}`, undefined],
    ["set a user's password", 'PUT', (ids: Ids) => `/api/v1/users/${ids.memberId}/password`, { password: 'correct horse battery' }],
    ['invite a user', 'POST', (ids: Ids) => `/api/v1/users/${ids.memberId}/invites`, undefined],
    ['promote a user', 'PATCH', (ids: Ids) => `/api/v1/users/${ids.memberId}`, { role: 'admin' }],
    ['reactivate a user', 'PATCH', (ids: Ids) => `/api/v1/users/${ids.memberId}`, { active: true }],
    ['delete a user', 'DELETE', (ids: Ids) => `/api/v1/users/${ids.memberId}`, undefined],
  ] as const)('a scoped key may not %s (an account-wide credential)', async (_, method, url, body) => {
    const { account, scoped } = await scopedSetup();
    const scimTokenId = (await server().services.credentials.createScimToken(account.id, account.admin.id, 't')).id;
    const response = await account.request({ method, url: url({ scimTokenId, memberId: account.member.id }), as: scoped.as, body });
    expect(response.status, response.text).toBe(403);
    expect(response.body.error).toMatch(/limited to deployments \d+ and cannot .*; use a key for every deployment$/);
  });

  describe('an admin key limited to a deployment acts on nothing account-wide', () => {
    const llm = { name: 'llm', baseUrl: 'https://llm.example.com/v1', model: 'm', apiKey: 'sk-x' };
    it.each([
      ['create an admin user', 'POST', () => '/api/v1/users', { email: 'boss@example.com', role: 'admin' }],
      ['create a member', 'POST', () => '/api/v1/users', { email: 'new@example.com' }],
      ["change a user's e-mail", 'PATCH', (ids: AccountIds) => `/api/v1/users/${ids.adminId}`, { email: 'mine@example.com' }],
      ['change the tenant settings', 'PATCH', () => '/api/v1/tenant-settings', { showDashboardChat: false }],
      ['change the app theme', 'PUT', () => '/api/v1/app-theme', { light: { accentColor: '#123456' } }],
      ['change the embed theme', 'PUT', () => '/api/v1/users/embed-theme', { primaryColor: '#1a73e8' }],
      ['change the AI engineer settings', 'PUT', () => '/api/v1/ai-engineer/settings', { tokenTtlSeconds: 600 }],
      ['add an LLM endpoint', 'POST', () => '/api/v1/agent-llms', { ...llm, name: 'another' }],
      ['change an LLM endpoint', 'PUT', (ids: AccountIds) => `/api/v1/agent-llms/${ids.llmId}`, { model: 'other' }],
      ['delete an LLM endpoint', 'DELETE', (ids: AccountIds) => `/api/v1/agent-llms/${ids.llmId}`, undefined],
      ['create a deployment', 'POST', () => '/api/v1/deployments', { name: 'outside' }],
    ] as const)('may not %s (403, and nothing changes)', async (_, method, url, body) => {
      const { account, a, scoped } = await scopedSetup();
      const created = await account.request({ method: 'POST', url: '/api/v1/agent-llms', as: account.admin, body: llm });
      expect(created.status, created.text).toBe(201);
      const ids = { adminId: account.admin.id, llmId: created.body.id as number };
      const before = await footprint(account);
      const response = await account.request({ method, url: url(ids), as: scoped.as, body });
      expect(response.status, response.text).toBe(403);
      expect(response.body.error).toMatch(
        new RegExp(`^This API key is limited to deployments ${a} and cannot .+; use a key for every deployment$`),
      );
      expect(await footprint(account)).toEqual(before);
    });

    it('still lists deployments, showing only its own', async () => {
      const { account, a, scoped } = await scopedSetup();
      const list = await account.request({ method: 'GET', url: '/api/v1/deployments', as: scoped.as });
      expect(list.status, list.text).toBe(200);
      expect(list.body.items.map((d: { id: number }) => d.id)).toEqual([a]);
    });
  });

  /** What the account-wide operations above would change, read as the account's unscoped admin. */
  const footprint = async (account: TestAccount) => {
    const read = async (url: string) => (await account.request({ method: 'GET', url, as: account.admin })).body;
    return Promise.all(
      [
        '/api/v1/users',
        '/api/v1/tenant-settings',
        '/api/v1/app-theme',
        '/api/v1/users/embed-theme',
        '/api/v1/ai-engineer/settings',
        '/api/v1/agent-llms',
        '/api/v1/deployments',
      ].map(read),
    );
  };

  it('a scoped key may still rename a user', async () => {
    const { account, scoped } = await scopedSetup();
    const response = await account.request({
      method: 'PATCH',
      url: `/api/v1/users/${account.member.id}`,
      as: scoped.as,
      body: { displayName: 'Renamed' },
    });
    expect(response.status, response.text).toBe(200);
  });

  describe('security 3: a deployment outside the scope is 403 whether or not it exists', () => {
    it.each([
      ['getDeployment', (id: number) => ({ method: 'GET' as const, url: `/api/v1/deployments/${id}` })],
      [
        'generateSession',
        (id: number) => ({ method: 'POST' as const, url: '/api/v1/embed/generate-session', body: { deploymentId: id, externalId: 'ann' } }),
      ],
    ])('%s', async (_, request) => {
      const { account, b, scoped } = await scopedSetup();
      for (const id of [b, 2_000_000_000]) {
        const response = await account.request({ ...request(id), as: scoped.as });
        expect(response.status, `deployment ${id}: ${response.text}`).toBe(403);
        expect(response.body.error).toBe(`This API key is not allowed to access deployment ${id}`);
      }
      // An unscoped key still learns that a deployment does not exist.
      expect((await account.request({ ...request(2_000_000_000), as: account.admin })).status).toBe(404);
    });
  });
});

interface AccountIds {
  adminId: number;
  llmId: number;
}

interface Ids {
  scimTokenId: number;
  memberId: number;
}
