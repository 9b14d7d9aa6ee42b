import { describe, expect, it } from 'vitest';
import { describeOnStores } from '../../test-support/server.js';
import { URN } from './errors.js';
import { expectScimError, scimClient, uniqueEmail, type ScimTestClient } from './scim-test-client.js';

type Request = (scim: ScimTestClient) => Promise<{ method: 'POST' | 'PUT' | 'PATCH'; path: string; body: Record<string, unknown> }>;

const patchOp = (schemas: unknown) => ({ schemas, Operations: [{ op: 'replace', path: 'displayName', value: 'x' }] });
const withUser = async (scim: ScimTestClient) => (await scim.createUser()).id as string;
const withGroup = async (scim: ScimTestClient) => (await scim.createGroup()).id as string;

/** Issue 10 item 5: each request whose `schemas` does not name its own URN. */
const wrongSchemas: Array<[string, Request]> = [
  [
    'POST /Users naming the Group schema',
    async () => ({ method: 'POST', path: '/Users', body: { schemas: [URN.group], userName: uniqueEmail() } }),
  ],
  ['POST /Users without schemas', async () => ({ method: 'POST', path: '/Users', body: { userName: uniqueEmail() } })],
  [
    'POST /Users naming an unknown schema besides User',
    async () => ({ method: 'POST', path: '/Users', body: { schemas: [URN.user, 'urn:example:x'], userName: uniqueEmail() } }),
  ],
  [
    'PUT /Users/{id} naming the PatchOp',
    async (s) => ({ method: 'PUT', path: `/Users/${await withUser(s)}`, body: { schemas: [URN.patchOp], userName: uniqueEmail() } }),
  ],
  [
    'POST /Groups naming the User schema',
    async () => ({ method: 'POST', path: '/Groups', body: { schemas: [URN.user], displayName: 'g' } }),
  ],
  ['PUT /Groups/{id} without schemas', async (s) => ({ method: 'PUT', path: `/Groups/${await withGroup(s)}`, body: { displayName: 'g' } })],
  [
    'PATCH /Users/{id} naming the User schema',
    async (s) => ({ method: 'PATCH', path: `/Users/${await withUser(s)}`, body: patchOp([URN.user]) }),
  ],
  [
    'PATCH /Groups/{id} without schemas',
    async (s) => ({ method: 'PATCH', path: `/Groups/${await withGroup(s)}`, body: patchOp(undefined) }),
  ],
  ['POST /Users/.search naming the PatchOp', async () => ({ method: 'POST', path: '/Users/.search', body: { schemas: [URN.patchOp] } })],
  ['POST /Groups/.search without schemas', async () => ({ method: 'POST', path: '/Groups/.search', body: {} })],
  ['POST /.search naming the ListResponse', async () => ({ method: 'POST', path: '/.search', body: { schemas: [URN.listResponse] } })],
  [
    'POST /Bulk naming the SearchRequest',
    async () => ({ method: 'POST', path: '/Bulk', body: { schemas: [URN.searchRequest], Operations: [] } }),
  ],
];

describeOnStores('SCIM protocol edges (issue 10)', (server) => {
  const client = async () => scimClient(await server().newAccount());

  describe("5: a request's schemas must name the right URN", () => {
    it.each(wrongSchemas)('%s is 400 invalidSyntax', async (_label, build) => {
      const scim = await client();
      const { method, path, body } = await build(scim);
      expectScimError(await scim.call(method, path, body), 400, 'invalidSyntax');
    });

    it('a Bulk PATCH whose data is not a PatchOp fails with 400 invalidSyntax', async () => {
      const scim = await client();
      const id = await withUser(scim);
      const response = await scim.call('POST', '/Bulk', {
        schemas: [URN.bulkRequest],
        Operations: [{ method: 'PATCH', path: `/Users/${id}`, data: { Operations: [{ op: 'replace', path: 'displayName', value: 'x' }] } }],
      });
      expect(response.status, response.text).toBe(200);
      expect(response.body.Operations[0]).toMatchObject({ status: '400', response: { scimType: 'invalidSyntax' } });
    });

    it('the extension URN is accepted beside User, in any case', async () => {
      const scim = await client();
      const response = await scim.call('POST', '/Users', {
        schemas: [URN.user.toUpperCase(), URN.enterpriseUser],
        userName: uniqueEmail(),
      });
      expect(response.status, response.text).toBe(201);
    });
  });

  describe('6: media types', () => {
    it('a 304 for If-None-Match carries no Content-Type and no body', async () => {
      const scim = await client();
      for (const resource of [`/Users/${await withUser(scim)}`, `/Groups/${await withGroup(scim)}`]) {
        const first = await scim.call('GET', resource);
        const again = await scim.call('GET', resource, undefined, { 'if-none-match': first.headers.etag as string });
        expect(again.status).toBe(304);
        expect(again.headers['content-type']).toBeUndefined();
        expect(again.text).toBe('');
      }
    });

    it('every SCIM request body is declared as application/scim+json and application/json in the served spec', async () => {
      const account = await server().newAccount();
      const spec = (await account.request({ method: 'GET', url: '/api/v1/spec' })).body;
      const bodies = Object.entries(spec.paths as Record<string, Record<string, any>>)
        .filter(([path]) => path.startsWith('/api/scim/v2/'))
        .flatMap(([path, methods]) =>
          Object.entries(methods)
            .filter(([, op]) => op.requestBody)
            .map(([method, op]) => [`${method} ${path}`, op.requestBody]),
        );
      expect(bodies.length).toBe(10);
      for (const [, body] of bodies) expect(Object.keys(body.content).sort()).toEqual(['application/json', 'application/scim+json']);
    });
  });

  describe('7: SCIM answers a bad bearer in its own words', () => {
    it.each([
      ['an empty bearer', 'Bearer '],
      ['the scheme alone', 'Bearer'],
      ['a bearer that is no SCIM token', 'Bearer abc.def'],
      ['a truncated SCIM token', 'Bearer scim_abc'],
      ['a bearer with two words', 'Bearer scim_aaaaaaaaaaaaaaaaaaaaaaaaa extra'],
      ['an unknown scheme', 'Basic dXNlcjpwYXNz'],
    ])('%s is 401 in the SCIM error body, naming the SCIM token', async (_label, authorization) => {
      const account = await server().newAccount();
      const response = await account.request({ method: 'GET', url: '/api/scim/v2/Users', as: authorization });
      expectScimError(response, 401);
      expect(response.body.detail).toMatch(/SCIM token/);
      expect(response.body.detail).not.toMatch(/data API/i);
      expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
    });
  });

  describe('security 8: a SCIM delete retires the user and keeps the audit trail', () => {
    it('credentials are revoked with the reason, not erased; the row keeps who, when and why; the userName is free again', async () => {
      const scim = await client();
      const user = await scim.createUser({ userName: 'leaver' });
      const internal = (await server().services.users.findByUuid(scim.account.id, user.id))!;
      const key = await server().services.credentials.createApiKey(scim.account.id, internal.id, {
        name: 'k',
        role: 'member',
        deploymentIds: null,
      });
      await server().services.credentials.issueAccessToken(scim.account.id, internal.id);
      expect((await scim.call('DELETE', `/Users/${user.id}`)).status).toBe(204);

      const db = server().store.db;
      const row = await db.selectFrom('app_user').selectAll().where('id', '=', internal.id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({
        active: false,
        deleted_by: expect.stringMatching(/^SCIM token \d+$/),
        deletion_reason: `SCIM DELETE /Users/${user.id}`,
      });
      expect(row.deleted_at).toBeInstanceOf(Date);
      const keys = await db
        .selectFrom('api_key')
        .select(['id', 'revoked_at', 'revoked_reason'])
        .where('user_id', '=', internal.id)
        .execute();
      expect(keys).toEqual([{ id: key.id, revoked_at: expect.any(Date), revoked_reason: expect.stringContaining('SCIM token') }]);
      const tokens = await db
        .selectFrom('access_token')
        .select(['revoked_at', 'revoked_reason'])
        .where('user_id', '=', internal.id)
        .execute();
      expect(tokens).toEqual([{ revoked_at: expect.any(Date), revoked_reason: expect.stringContaining('deleted') }]);

      const withKey = await scim.account.request({ method: 'GET', url: '/api/v1/oauth-integrations', as: `Api-Key ${key.key}` });
      expect(withKey.status).toBe(401);
      expect(await server().services.users.find(scim.account.id, internal.id)).toBeUndefined();
      expect((await scim.call('GET', `/Users?filter=${encodeURIComponent('userName eq "leaver"')}`)).body.totalResults).toBe(0);
      const again = await scim.call('POST', '/Users', { schemas: [URN.user], userName: 'LEAVER' });
      expect(again.status, again.text).toBe(201);
      expect(again.body.id).not.toBe(user.id);
    });

    it('deleted members leave their groups', async () => {
      const scim = await client();
      const user = await scim.createUser();
      const group = await scim.createGroup({ members: [{ value: user.id }] });
      await scim.call('DELETE', `/Users/${user.id}`);
      expect((await scim.call('GET', `/Groups/${group.id}`)).body.members).toEqual([]);
    });

    it.each<[string, (scim: ScimTestClient, id: string) => Promise<import('../../test-support/server.js').TestResponse>]>([
      ['DELETE', (scim, id) => scim.call('DELETE', `/Users/${id}`)],
      ['PATCH active false', (scim, id) => scim.patch(`/Users/${id}`, [{ op: 'replace', path: 'active', value: 'False' }])],
      [
        'PUT active false',
        async (scim, id) => {
          const current = (await scim.call('GET', `/Users/${id}`)).body;
          return scim.call('PUT', `/Users/${id}`, { schemas: [URN.user], userName: current.userName, active: false });
        },
      ],
    ])('%s of the last active admin is 400 mutability and changes nothing', async (_label, act) => {
      const scim = await client();
      const admin = (await server().services.users.get(scim.account.id, scim.account.admin.id))!;
      const response = await act(scim, admin.uuid);
      expectScimError(response, 400, 'mutability');
      expect(response.body.detail).toMatch(/last active admin/);
      expect(await server().services.users.get(scim.account.id, admin.id)).toMatchObject({ active: true, version: admin.version });
    });
  });
});
