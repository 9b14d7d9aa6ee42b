import { describe, expect, it } from 'vitest';
import { authorizationSuite } from '../../test-support/authorization.js';
import { describeOnStores, type TestAccount } from '../../test-support/server.js';
import { cases, configBody } from './authorization.cases.js';

const CONFIGS = '/api/v1/oidc-token-configs';

async function create(account: TestAccount, body: Record<string, unknown> = configBody()) {
  return account.request({ method: 'POST', url: CONFIGS, as: account.admin, body });
}

describeOnStores('oidc token configs', (server) => {
  describe('create, read, update, delete', () => {
    it('creates with the defaults, reads it back (members too) and lists it', async () => {
      const account = await server().newAccount();
      const body = configBody();
      const created = await create(account, body);
      expect(created.status, created.text).toBe(201);
      expect(created.body).toMatchObject({ ...body, jwksUri: null, userClaim: 'email', algorithms: ['RS256'], enabled: true });
      expect(Date.parse(created.body.createdAt)).not.toBeNaN();
      const got = await account.request({ method: 'GET', url: `${CONFIGS}/${created.body.id}`, as: account.member });
      expect(got.body).toEqual(created.body);
      const listed = await account.request({ method: 'GET', url: CONFIGS, as: account.member });
      expect(listed.body.items).toEqual([created.body]);
    });

    it('updates only the supplied fields, then deletes', async () => {
      const account = await server().newAccount();
      const { id } = (await create(account)).body;
      const updated = await account.request({
        method: 'PATCH',
        url: `${CONFIGS}/${id}`,
        as: account.admin,
        body: { userClaim: 'sub', algorithms: ['ES256', 'RS256'], enabled: false, jwksUri: 'https://keys.example.com/jwks' },
      });
      expect(updated.status, updated.text).toBe(200);
      expect(updated.body).toMatchObject({
        userClaim: 'sub',
        algorithms: ['ES256', 'RS256'],
        enabled: false,
        jwksUri: 'https://keys.example.com/jwks',
      });
      expect((await account.request({ method: 'DELETE', url: `${CONFIGS}/${id}`, as: account.admin })).status).toBe(204);
      expect((await account.request({ method: 'GET', url: `${CONFIGS}/${id}`, as: account.admin })).status).toBe(404);
      expect((await account.request({ method: 'DELETE', url: `${CONFIGS}/${id}`, as: account.admin })).status).toBe(404);
    });

    it('pages with first/after', async () => {
      const account = await server().newAccount();
      const ids = [];
      for (let i = 0; i < 3; i++) ids.push((await create(account)).body.id);
      const first = await account.request({ method: 'GET', url: `${CONFIGS}?first=2`, as: account.admin });
      expect(first.body.items.map((c: { id: number }) => c.id)).toEqual(ids.slice(0, 2));
      const rest = await account.request({
        method: 'GET',
        url: `${CONFIGS}?first=2&after=${first.body.pageInfo.endCursor}`,
        as: account.admin,
      });
      expect(rest.body.items.map((c: { id: number }) => c.id)).toEqual(ids.slice(2));
      expect(rest.body.pageInfo.hasNextPage).toBe(false);
    });

    it('a second config with the same name (any case) or issuer is 409', async () => {
      const account = await server().newAccount();
      const body = configBody();
      await create(account, body);
      const sameName = await create(account, { ...configBody(), name: body.name.toUpperCase() });
      expect([sameName.status, sameName.body.error]).toEqual([409, expect.stringContaining('already exists')]);
      const sameIssuer = await create(account, { ...configBody(), issuer: body.issuer });
      expect(sameIssuer.status).toBe(409);
      // Another account may trust the same issuer.
      expect((await create(await server().newAccount(), body)).status).toBe(201);
    });

    it.each([
      [{ issuer: 'http://login.example.com' }, 'issuer must be an https URL'],
      [{ issuer: 'ftp://login.example.com' }, 'issuer'],
      [{ jwksUri: 'http://keys.example.com/jwks' }, 'jwksUri must be an https URL'],
      [{ audiences: [] }, 'audiences'],
      [{ algorithms: ['HS256'] }, 'algorithms'],
      [{ algorithms: ['none'] }, 'algorithms'],
      [{ userClaim: 'name' }, 'userClaim'],
      [{ colour: 'red' }, 'colour'],
      [{ name: '' }, 'name'],
    ])('rejects %j with 400 naming the field', async (change, message) => {
      const account = await server().newAccount();
      const response = await create(account, { ...configBody(), ...change });
      expect(response.status, response.text).toBe(400);
      expect(response.body.error).toContain(message);
    });

    it('accepts http for localhost and 127.0.0.1 only (local issuers in development)', async () => {
      const account = await server().newAccount();
      for (const issuer of ['http://localhost:8080', 'http://127.0.0.1:9000/realms/x']) {
        const response = await create(account, { ...configBody(), issuer });
        expect(response.status, response.text).toBe(201);
      }
      const { id } = (await create(account)).body;
      const patched = await account.request({
        method: 'PATCH',
        url: `${CONFIGS}/${id}`,
        as: account.admin,
        body: { issuer: 'http://evil.example' },
      });
      expect(patched.status).toBe(400);
      const empty = await account.request({ method: 'PATCH', url: `${CONFIGS}/${id}`, as: account.admin, body: {} });
      expect(empty.status).toBe(400);
    });
  });

  describe('authorisation', () => {
    authorizationSuite(server, cases);
  });
});
