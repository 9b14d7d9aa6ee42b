import { expect, it } from 'vitest';
import { describeOnStores } from '../../test-support/server.js';
import { URN } from './errors.js';
import { expectScimError, scimClient, uniqueEmail } from './scim-test-client.js';

const bulk = (Operations: unknown[], extra: Record<string, unknown> = {}) => ({ schemas: [URN.bulkRequest], Operations, ...extra });

describeOnStores('SCIM Bulk (RFC 7644 §3.7)', (server) => {
  const client = async () => scimClient(await server().newAccount());

  it('bulkId references between operations, in any order', async () => {
    const scim = await client();
    const userName = uniqueEmail('bulk');
    const response = await scim.call(
      'POST',
      '/Bulk',
      bulk([
        // The group refers to a user created by a later operation.
        {
          method: 'POST',
          path: '/Groups',
          bulkId: 'g1',
          data: { schemas: [URN.group], displayName: 'Bulk group', members: [{ value: 'bulkId:u1' }] },
        },
        { method: 'POST', path: '/Users', bulkId: 'u1', data: { schemas: [URN.user], userName } },
        {
          method: 'PATCH',
          path: '/Users/bulkId:u1',
          data: { schemas: [URN.patchOp], Operations: [{ op: 'replace', value: { displayName: 'Patched' } }] },
        },
      ]),
    );
    expect(response.status, response.text).toBe(200);
    expect(response.body.schemas).toEqual([URN.bulkResponse]);
    const [group, user, patch] = response.body.Operations;
    expect(group).toMatchObject({ method: 'POST', bulkId: 'g1', status: '201', location: expect.stringContaining('/Groups/') });
    expect(user).toMatchObject({ method: 'POST', bulkId: 'u1', status: '201', version: 'W/"1"' });
    expect(patch).toMatchObject({ method: 'PATCH', status: '200', location: user.location });
    const userId = user.location.split('/').pop();
    const fetched = await scim.call('GET', `/Groups/${group.location.split('/').pop()}`);
    expect(fetched.body.members.map((m: { value: string }) => m.value)).toEqual([userId]);
    expect((await scim.call('GET', `/Users/${userId}`)).body.displayName).toBe('Patched');
  });

  it('each operation succeeds or fails on its own, with a SCIM error in its response', async () => {
    const scim = await client();
    const existing = await scim.createUser();
    const response = await scim.call(
      'POST',
      '/Bulk',
      bulk([
        { method: 'POST', path: '/Users', bulkId: 'dup', data: { schemas: [URN.user], userName: existing.userName } },
        { method: 'DELETE', path: `/Users/${existing.id}`, version: 'W/"5"' },
        { method: 'POST', path: '/Users', bulkId: 'ok', data: { schemas: [URN.user], userName: uniqueEmail() } },
        { method: 'PUT', path: '/Users/bulkId:never', data: { schemas: [URN.user], userName: uniqueEmail() } },
        { method: 'DELETE', path: `/Users/${existing.id}` },
      ]),
    );
    expect(response.status, response.text).toBe(200);
    expect(response.body.Operations.map((o: { status: string }) => o.status)).toEqual(['409', '412', '201', '409', '204']);
    expect(response.body.Operations[0].response).toMatchObject({ schemas: [URN.error], status: '409', scimType: 'uniqueness' });
  });

  it('RFC 7644 §3.7: a POST without bulkId fails on its own with 400 invalidValue and creates nothing', async () => {
    const scim = await client();
    const [orphan, kept] = [uniqueEmail('nobulkid'), uniqueEmail('kept')];
    const response = await scim.call(
      'POST',
      '/Bulk',
      bulk([
        { method: 'POST', path: '/Users', data: { schemas: [URN.user], userName: orphan } },
        { method: 'POST', path: '/Users', bulkId: '', data: { schemas: [URN.user], userName: uniqueEmail() } },
        { method: 'POST', path: '/Users', bulkId: 'k', data: { schemas: [URN.user], userName: kept } },
      ]),
    );
    expect(response.status, response.text).toBe(200);
    expect(response.body.Operations.map((o: any) => [o.status, o.response?.scimType])).toEqual([
      ['400', 'invalidValue'],
      ['400', 'invalidValue'],
      ['201', undefined],
    ]);
    expect(response.body.Operations[0].response.detail).toMatch(/bulkId/);
    const found = await scim.call('GET', `/Users?filter=${encodeURIComponent(`userName eq "${orphan}"`)}`);
    expect(found.body.totalResults).toBe(0);
  });

  it('failOnErrors stops after that many errors', async () => {
    const scim = await client();
    const response = await scim.call(
      'POST',
      '/Bulk',
      bulk(
        [
          { method: 'POST', path: '/Users', bulkId: 'a', data: { schemas: [URN.user] } },
          { method: 'POST', path: '/Users', bulkId: 'b', data: { schemas: [URN.user] } },
          { method: 'POST', path: '/Users', bulkId: 'c', data: { schemas: [URN.user], userName: uniqueEmail() } },
        ],
        { failOnErrors: 2 },
      ),
    );
    expect(response.body.Operations.map((o: { status: string }) => o.status)).toEqual(['400', '400']);
  });

  it("maxOperations is the tenant's bulkActionLimit: more operations is 413", async () => {
    const scim = await client();
    await server().services.tenantSettings.update(scim.account.id, { bulkActionLimit: 2 });
    const config = await scim.call('GET', '/ServiceProviderConfig');
    expect(config.body.bulk).toMatchObject({ supported: true, maxOperations: 2 });
    const op = () => ({ method: 'POST', path: '/Users', bulkId: uniqueEmail('b'), data: { schemas: [URN.user], userName: uniqueEmail() } });
    expectScimError(await scim.call('POST', '/Bulk', bulk([op(), op(), op()])), 413);
    expect((await scim.call('POST', '/Bulk', bulk([op(), op()]))).status).toBe(200);
  });

  it('an unknown path or method is a failed operation, not a failed request', async () => {
    const scim = await client();
    const response = await scim.call(
      'POST',
      '/Bulk',
      bulk([
        { method: 'POST', path: '/Widgets', data: {} },
        { method: 'GET', path: '/Users/x' },
      ]),
    );
    expect(response.body.Operations.map((o: any) => [o.status, o.response.scimType])).toEqual([
      ['400', 'invalidPath'],
      ['400', 'invalidSyntax'],
    ]);
  });
});

describeOnStores('SCIM discovery (RFC 7644 §4)', (server) => {
  const client = async () => scimClient(await server().newAccount());

  it('ServiceProviderConfig describes what is implemented', async () => {
    const scim = await client();
    const response = await scim.call('GET', '/ServiceProviderConfig');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/scim\+json/);
    expect(response.body).toMatchObject({
      schemas: [URN.serviceProviderConfig],
      patch: { supported: true },
      bulk: { supported: true, maxOperations: 1000, maxPayloadSize: 1024 * 1024 },
      filter: { supported: true, maxResults: 1000 },
      changePassword: { supported: false },
      sort: { supported: true },
      etag: { supported: true },
      authenticationSchemes: [expect.objectContaining({ type: 'oauthbearertoken' })],
    });
  });

  it('ResourceTypes and Schemas, listed and each by id', async () => {
    const scim = await client();
    const types = await scim.call('GET', '/ResourceTypes');
    expect(types.body).toMatchObject({ schemas: [URN.listResponse], totalResults: 2 });
    expect(types.body.Resources.map((t: any) => [t.id, t.endpoint, t.schema])).toEqual([
      ['User', '/Users', URN.user],
      ['Group', '/Groups', URN.group],
    ]);
    expect((await scim.call('GET', '/ResourceTypes/Group')).body).toMatchObject({ name: 'Group', schema: URN.group });

    const schemas = await scim.call('GET', '/Schemas');
    expect(schemas.body.Resources.map((s: any) => s.id)).toEqual([URN.user, URN.group, URN.enterpriseUser]);
    const user = await scim.call('GET', `/Schemas/${URN.user}`);
    const userName = user.body.attributes.find((a: any) => a.name === 'userName');
    expect(userName).toMatchObject({ type: 'string', required: true, caseExact: false, uniqueness: 'server', mutability: 'readWrite' });
    const members = (await scim.call('GET', `/Schemas/${URN.group}`)).body.attributes.find((a: any) => a.name === 'members');
    expect(members.subAttributes.map((a: any) => a.name)).toEqual(['value', '$ref', 'display', 'type']);

    expectScimError(await scim.call('GET', '/ResourceTypes/Widget'), 404);
    expectScimError(await scim.call('GET', '/Schemas/urn:example:nothing'), 404);
  });
});

describeOnStores('SCIM in the served spec and at the edges', (server) => {
  it('every SCIM operation is in the spec under tag SCIM with the SCIM security scheme and ScimError', async () => {
    const account = await server().newAccount();
    const spec = (await account.request({ method: 'GET', url: '/api/v1/spec' })).body;
    const operations = Object.entries(spec.paths as Record<string, Record<string, any>>)
      .filter(([path]) => path.startsWith('/api/scim/v2/'))
      .flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method, op })));
    expect(operations.length).toBe(21);
    for (const { op } of operations) {
      expect(op.tags).toEqual(['SCIM']);
      expect(op.security).toEqual([{ scimBearerAuth: [] }]);
      expect(JSON.stringify(op.responses['401'])).toContain('ScimError');
    }
    expect(spec.components.schemas.ScimError.properties).toHaveProperty('scimType');
  });

  it('5: API keys, access tokens, no credential and revoked tokens get 401 in the SCIM error format', async () => {
    const account = await server().newAccount();
    const scim = await scimClient(account);
    const { id, token } = await server().services.credentials.createScimToken(account.id, account.admin.id, 'old');
    await server().services.credentials.revokeScimToken(account.id, id);
    for (const as of [`Api-Key ${account.admin.apiKey}`, `Bearer ${await account.accessToken(account.admin)}`, null, `Bearer ${token}`]) {
      const response = await account.request({ method: 'GET', url: '/api/scim/v2/Users', as });
      expectScimError(response, 401);
      expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
    }
    expect((await scim.call('GET', '/Users')).status).toBe(200);
  });

  it('an unknown SCIM route is 404 in the SCIM error format', async () => {
    const scim = await scimClient(await server().newAccount());
    expectScimError(await scim.call('GET', '/Widgets'), 404);
  });
});
