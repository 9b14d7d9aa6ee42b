import { beforeAll, describe, expect, it } from 'vitest';
import { describeOnStores } from '../../test-support/server.js';
import { embedAccount, type EmbedAccount } from '../embed/test-fixtures.js';
import { EMBED_TENANT_NAME_RULE } from './rules.js';

/**
 * Bad embed tenant names sent to every `/embed-tenants/{name}` route, and externalIds at the
 * 255-character limit, through the routes and a real store. The rules themselves, case by case,
 * are in rules-cases.test.ts.
 */
const BAD_NAMES: Array<[string, string]> = [
  ['four characters', 'abcd'],
  ['thirty-seven characters', `a${'b'.repeat(36)}`],
  ['a digit first', '1abcde'],
  ['a dash last', 'abcde-'],
  ['upper case', 'Acme-Corp'],
  ['an underscore', 'acme_corp'],
  ['a space', 'acme corp'],
  ['a NUL-free control character', 'acme\tcorp'],
];

/** Routes that read: an invalid name can name no tenant, so it is 404, never a 500 or a 400 that leaks the rule. */
const READS: Array<[string, 'GET' | 'DELETE', (name: string) => string]> = [
  ['list groups', 'GET', (n) => `/api/v1/embed-tenants/${n}/groups`],
  ['delete a group', 'DELETE', (n) => `/api/v1/embed-tenants/${n}/groups/1`],
  ['list user attributes', 'GET', (n) => `/api/v1/embed-tenants/${n}/user-attributes`],
  ['delete a user attribute', 'DELETE', (n) => `/api/v1/embed-tenants/${n}/user-attributes/1`],
  ['list users', 'GET', (n) => `/api/v1/embed-tenants/${n}/users`],
  ['get a user', 'GET', (n) => `/api/v1/embed-tenants/${n}/users/ann`],
];

describeOnStores('embed tenant names and externalIds at the routes', (server) => {
  let account: EmbedAccount;
  beforeAll(async () => {
    account = await embedAccount(server());
  });
  const call = (method: 'GET' | 'DELETE' | 'POST', url: string, body?: unknown) =>
    account.request({ method, url, as: account.admin, body });

  describe.each(READS)('%s', (_route, method, url) => {
    it.each(BAD_NAMES)('with a name of %s is 404 naming the tenant', async (_label, name) => {
      const response = await call(method, url(encodeURIComponent(name)));
      expect(response.status, response.text).toBe(404);
      expect(response.body.error).toBe(`Embed tenant "${name}" not found`);
    });

    it('with a valid name that does not exist is 404 too', async () => {
      const response = await call(method, url('no-such-tenant'));
      expect(response.status, response.text).toBe(404);
      expect(response.body.error).toBe('Embed tenant "no-such-tenant" not found');
    });

    it('with a name longer than any tenant name is a 400 from the schema', async () => {
      const response = await call(method, url('a'.repeat(64)));
      expect(response.status, response.text).toBe(400);
    });
  });

  describe('routes that create the tenant on demand', () => {
    it.each(BAD_NAMES)('provisioning one user with a name of %s is 400 stating the rule, and creates nothing', async (_label, name) => {
      const before = await account.footprint();
      const response = await call('POST', `/api/v1/embed-tenants/${encodeURIComponent(name)}/user`, { externalId: 'ann' });
      expect(response.status, response.text).toBe(400);
      expect(response.body.error).toBe(EMBED_TENANT_NAME_RULE);
      expect(await account.footprint()).toEqual(before);
    });

    it.each(BAD_NAMES)('provisioning in bulk with a name of %s is 400 stating the rule', async (_label, name) => {
      const response = await call('POST', `/api/v1/embed-tenants/${encodeURIComponent(name)}/users`, { users: [{ externalId: 'ann' }] });
      expect(response.status, response.text).toBe(400);
      expect(response.body.error).toBe(EMBED_TENANT_NAME_RULE);
    });

    it.each([
      ['the shortest name', 'abcde'],
      ['the longest name', `a${'b'.repeat(35)}`],
      ['digits and dashes', 'team-42'],
    ])('%s is created on demand and then readable', async (_label, name) => {
      const response = await call('POST', `/api/v1/embed-tenants/${name}/user`, { externalId: 'Ann' });
      expect(response.status, response.text).toBe(200);
      const users = await call('GET', `/api/v1/embed-tenants/${name}/users`);
      expect(users.status, users.text).toBe(200);
      expect(users.body.items.map((u: { externalId: string }) => u.externalId)).toEqual(['ann']);
    });
  });

  describe('externalId length (section 2.4: at most 255 characters)', () => {
    it.each([
      ['exactly 255 characters', 'X'.repeat(255), 'x'.repeat(255)],
      ['255 characters once trimmed', `   ${'y'.repeat(255)}   `, 'y'.repeat(255)],
      ['255 characters of three bytes each, nine once percent-encoded in the path', '中'.repeat(255), '中'.repeat(255)],
    ])('%s is provisioned, lowercased and trimmed', async (_label, externalId, stored) => {
      const response = await call('POST', `/api/v1/embed-tenants/${account.name}/user`, { externalId });
      expect(response.status, response.text).toBe(200);
      expect(response.body.externalId).toBe(stored);
      expect((await account.externalUser(stored))?.externalId).toBe(stored);
    });

    it('256 characters is 400, alone and as a bulk entry', async () => {
      const one = await call('POST', `/api/v1/embed-tenants/${account.name}/user`, { externalId: 'z'.repeat(256) });
      expect(one.status, one.text).toBe(400);
      expect(one.body.error).toBe('externalId must be at most 255 characters');

      const bulk = await call('POST', `/api/v1/embed-tenants/${account.name}/users`, {
        users: [{ externalId: 'w'.repeat(255) }, { externalId: 'w'.repeat(256) }],
      });
      expect(bulk.status, bulk.text).toBe(200);
      expect(bulk.body.succeeded).toEqual([{ index: 0, externalId: 'w'.repeat(255) }]);
      expect(bulk.body.failed).toEqual([
        { index: 1, externalId: expect.anything(), error: { status: 400, message: 'externalId must be at most 255 characters' } },
      ]);
      expect(await account.externalUser('z'.repeat(256))).toBeUndefined();
    });

    it.each([
      ['empty', ''],
      ['only spaces', '    '],
    ])('an externalId %s is 400', async (_label, externalId) => {
      const response = await call('POST', `/api/v1/embed-tenants/${account.name}/user`, { externalId });
      expect(response.status, response.text).toBe(400);
    });
  });
});
