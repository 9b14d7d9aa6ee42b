import { describe, expect, it } from 'vitest';
import { describeOnStores } from '../../test-support/server.js';
import { URN } from './errors.js';
import { expectScimError, scimClient, uniqueEmail } from './scim-test-client.js';

describeOnStores('SCIM Users', (server) => {
  const client = async () => scimClient(await server().newAccount());

  describe('4.2 GET /Users/{id}', () => {
    it('returns the core User of 2.2 with meta and an absolute location', async () => {
      const scim = await client();
      const userName = uniqueEmail('jane');
      const created = await scim.createUser({ userName, externalId: 'okta-00u1', displayName: 'Jane Doe' });
      const response = await scim.call('GET', `/Users/${created.id}`);
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/scim\+json/);
      expect(response.body).toMatchObject({
        schemas: [URN.user],
        id: created.id,
        userName,
        name: { givenName: 'Jane', familyName: 'Doe' },
        active: true,
        externalId: 'okta-00u1',
        displayName: 'Jane Doe',
        meta: {
          resourceType: 'User',
          location: `http://${scim.account.host}/api/scim/v2/Users/${created.id}`,
          version: 'W/"1"',
        },
      });
      expect(response.body.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(Date.parse(response.body.meta.created)).not.toBeNaN();
      expect(Date.parse(response.body.meta.lastModified)).not.toBeNaN();
      expect(response.headers.etag).toBe('W/"1"');
      // Issue 10: nothing made up from userName.
      expect(response.body.emails).toBeUndefined();
    });

    it.each([
      ['an unknown UUID', '00000000-0000-4000-8000-000000000000'],
      ['an id that is not a UUID', 'not-a-uuid'],
    ])('2.3/7: %s is 404 with the SCIM error body', async (_label, id) => {
      const scim = await client();
      const response = await scim.call('GET', `/Users/${id}`);
      expectScimError(response, 404);
      expect(response.body.detail).toMatch(/not found/);
      expect(response.body.scimType).toBeUndefined();
    });

    it("a token sees only its own account: another account's user is 404", async () => {
      const mine = await client();
      const theirs = await client();
      const user = await theirs.createUser();
      expectScimError(await mine.call('GET', `/Users/${user.id}`), 404);
    });
  });

  describe('create', () => {
    it('201 with Location, as an internal user with the member role', async () => {
      const scim = await client();
      const response = await scim.call('POST', '/Users', { schemas: [URN.user], userName: uniqueEmail() });
      expect(response.status).toBe(201);
      expect(response.headers.location).toBe(response.body.meta.location);
      const internal = await server().services.users.findByUuid(scim.account.id, response.body.id);
      expect(internal).toMatchObject({ email: response.body.userName, role: 'member', active: true });
    });

    it('accepts application/json as well as application/scim+json', async () => {
      const scim = await client();
      const response = await scim.call(
        'POST',
        '/Users',
        { schemas: [URN.user], userName: uniqueEmail() },
        { 'content-type': 'application/json' },
      );
      expect(response.status).toBe(201);
      expect(response.headers['content-type']).toMatch(/^application\/scim\+json/);
    });

    it('userName is unique case-insensitively: 409 uniqueness', async () => {
      const scim = await client();
      const userName = uniqueEmail('dup');
      await scim.createUser({ userName });
      const response = await scim.call('POST', '/Users', { schemas: [URN.user], userName: userName.toUpperCase() });
      expectScimError(response, 409, 'uniqueness');
    });

    it.each([
      ['no userName', { schemas: [URN.user] }, 'invalidValue'],
      ['an empty userName', { schemas: [URN.user], userName: '  ' }, 'invalidValue'],
      ['a userName of 257 characters', { schemas: [URN.user], userName: 'u'.repeat(257) }, 'invalidValue'],
      ['active a string other than True or False', { schemas: [URN.user], userName: 'x@example.com', active: 'maybe' }, 'invalidValue'],
      ['active a number', { schemas: [URN.user], userName: 'x@example.com', active: 1 }, 'invalidSyntax'],
      ['a client-chosen id', { schemas: [URN.user], userName: 'y@example.com', id: 'mine' }, 'mutability'],
      ['meta it cannot set', { schemas: [URN.user], userName: 'z@example.com', meta: { created: '2001-01-01T00:00:00Z' } }, 'mutability'],
    ])('400 for %s', async (_label, body, scimType) => {
      const scim = await client();
      expectScimError(await scim.call('POST', '/Users', body), 400, scimType);
    });

    it('400 invalidSyntax for a body that is not JSON, 415 for another media type', async () => {
      const scim = await client();
      const broken = await scim.account.request({
        method: 'POST',
        url: '/api/scim/v2/Users',
        as: `Bearer ${scim.token}`,
        body: '{"userName":',
        headers: { 'content-type': 'application/scim+json' },
      });
      expectScimError(broken, 400, 'invalidSyntax');
      const text = await scim.account.request({
        method: 'POST',
        url: '/api/scim/v2/Users',
        as: `Bearer ${scim.token}`,
        body: 'userName=x',
        headers: { 'content-type': 'text/plain' },
      });
      expectScimError(text, 415);
    });
  });

  describe('replace (PUT)', () => {
    it('replaces the attributes sent, clears the ones left out and keeps active', async () => {
      const scim = await client();
      const user = await scim.createUser({ displayName: 'Old', externalId: 'e1' });
      await scim.patch(`/Users/${user.id}`, [{ op: 'replace', path: 'active', value: false }]);
      const userName = uniqueEmail('renamed');
      const response = await scim.call('PUT', `/Users/${user.id}`, {
        schemas: [URN.user],
        id: user.id,
        userName,
        name: { givenName: 'New' },
      });
      expect(response.status, response.text).toBe(200);
      expect(response.body).toMatchObject({ userName, name: { givenName: 'New' }, active: false });
      expect(response.body.displayName).toBeUndefined();
      expect(response.body.externalId).toBeUndefined();
      expect(response.body.name.familyName).toBeUndefined();
    });

    it('id and meta are read-only: another id is 400 mutability, the same one is fine', async () => {
      const scim = await client();
      const user = await scim.createUser();
      const other = '00000000-0000-4000-8000-000000000000';
      expectScimError(await scim.call('PUT', `/Users/${user.id}`, { ...user, id: other }), 400, 'mutability');
      expectScimError(
        await scim.call('PUT', `/Users/${user.id}`, { ...user, meta: { ...user.meta, version: 'W/"99"' } }),
        400,
        'mutability',
      );
      const echoed = await scim.call('PUT', `/Users/${user.id}`, user);
      expect(echoed.status, echoed.text).toBe(200);
      expect(echoed.body.meta.version).toBe(user.meta.version);
    });

    it("taking another user's userName is 409 uniqueness", async () => {
      const scim = await client();
      const a = await scim.createUser();
      const b = await scim.createUser();
      expectScimError(
        await scim.call('PUT', `/Users/${b.id}`, { schemas: [URN.user], userName: a.userName.toUpperCase() }),
        409,
        'uniqueness',
      );
    });
  });

  describe('delete', () => {
    it("204, then GET is 404 and the user's API keys stop working", async () => {
      const scim = await client();
      const user = await scim.createUser();
      const internal = (await server().services.users.findByUuid(scim.account.id, user.id))!;
      const key = await server().services.credentials.createApiKey(scim.account.id, internal.id, {
        name: 'k',
        role: 'member',
        deploymentIds: null,
      });
      const response = await scim.call('DELETE', `/Users/${user.id}`);
      expect(response.status).toBe(204);
      expect(response.text).toBe('');
      expectScimError(await scim.call('GET', `/Users/${user.id}`), 404);
      expectScimError(await scim.call('DELETE', `/Users/${user.id}`), 404);
      const withKey = await scim.account.request({ method: 'GET', url: '/api/v1/oauth-integrations', as: `Api-Key ${key.key}` });
      expect(withKey.status).toBe(401);
    });
  });

  describe('active', () => {
    it("false blocks the user's API keys and access tokens; true restores them", async () => {
      const scim = await client();
      const user = await scim.createUser();
      const internal = (await server().services.users.findByUuid(scim.account.id, user.id))!;
      const key = await server().services.credentials.createApiKey(scim.account.id, internal.id, {
        name: 'k',
        role: 'member',
        deploymentIds: null,
      });
      const token = (await server().services.credentials.issueAccessToken(scim.account.id, internal.id)).accessToken;
      const use = (as: string) => scim.account.request({ method: 'GET', url: '/api/v1/oauth-integrations', as });
      expect((await use(`Api-Key ${key.key}`)).status).toBe(200);

      await scim.patch(`/Users/${user.id}`, [{ op: 'replace', value: { active: false } }]);
      expect((await use(`Api-Key ${key.key}`)).status).toBe(401);
      expect((await use(`Bearer ${token}`)).status).toBe(401);

      await scim.patch(`/Users/${user.id}`, [{ op: 'replace', value: { active: true } }]);
      expect((await use(`Api-Key ${key.key}`)).status).toBe(200);
      expect((await use(`Bearer ${token}`)).status).toBe(200);
    });
  });

  describe('versioning (RFC 7644 §3.14)', () => {
    it('every change bumps meta.version; a request that changes nothing keeps it', async () => {
      const scim = await client();
      const user = await scim.createUser();
      const changed = await scim.patch(`/Users/${user.id}`, [{ op: 'replace', path: 'displayName', value: 'A' }]);
      expect(changed.body.meta.version).toBe('W/"2"');
      const same = await scim.patch(`/Users/${user.id}`, [{ op: 'replace', path: 'displayName', value: 'A' }]);
      expect(same.body.meta.version).toBe('W/"2"');
    });

    it.each(['PUT', 'PATCH', 'DELETE'] as const)('%s with If-Match of another version is 412 and changes nothing', async (method) => {
      const scim = await client();
      const user = await scim.createUser();
      const body =
        method === 'PUT'
          ? { ...user, displayName: 'x' }
          : method === 'PATCH'
            ? { schemas: [URN.patchOp], Operations: [{ op: 'replace', path: 'displayName', value: 'x' }] }
            : undefined;
      expectScimError(await scim.call(method, `/Users/${user.id}`, body, { 'if-match': 'W/"7"' }), 412);
      const after = await scim.call('GET', `/Users/${user.id}`);
      expect(after.body.meta.version).toBe('W/"1"');
      const ok = await scim.call(method, `/Users/${user.id}`, body, { 'if-match': 'W/"1"' });
      expect(ok.status).toBe(method === 'DELETE' ? 204 : 200);
    });

    it('GET with If-None-Match of the current version is 304; of an old one, 200', async () => {
      const scim = await client();
      const user = await scim.createUser();
      const current = await scim.call('GET', `/Users/${user.id}`, undefined, { 'if-none-match': 'W/"1"' });
      expect(current.status).toBe(304);
      expect(current.text).toBe('');
      await scim.patch(`/Users/${user.id}`, [{ op: 'replace', path: 'displayName', value: 'B' }]);
      const stale = await scim.call('GET', `/Users/${user.id}`, undefined, { 'if-none-match': 'W/"1"' });
      expect(stale.status).toBe(200);
      expect(stale.headers.etag).toBe('W/"2"');
    });
  });
});
