import { describe, expect, it } from 'vitest';
import { authorizationSuite } from '../../test-support/authorization.js';
import { describeOnStores, type TestAccount } from '../../test-support/server.js';
import { cases } from './authorization.cases.js';

async function createAttribute(account: TestAccount, body: Record<string, unknown>) {
  const response = await account.request({ method: 'POST', url: '/api/v1/user-attributes', as: account.admin, body });
  expect(response.status, response.text).toBe(201);
  return response.body as { id: number; name: string };
}

describeOnStores('user attributes', (server) => {
  describe('definitions', () => {
    it('creates, reads, lists, updates and deletes', async () => {
      const account = await server().newAccount();
      const created = await account.request({
        method: 'POST',
        url: '/api/v1/user-attributes',
        as: account.admin,
        body: { name: 'region_ids', type: 'number_array', displayName: 'Regions', defaultValue: '[1,2]', description: 'Where' },
      });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        id: expect.any(Number),
        name: 'region_ids',
        type: 'number_array',
        displayName: 'Regions',
        defaultValue: '[1,2]',
        description: 'Where',
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      const { id } = created.body;
      expect((await account.request({ method: 'GET', url: `/api/v1/user-attributes/${id}`, as: account.member })).body).toMatchObject({
        id,
      });
      const list = await account.request({ method: 'GET', url: '/api/v1/user-attributes', as: account.member });
      expect(list.body.items.map((a: { id: number }) => a.id)).toEqual([id]);
      const updated = await account.request({
        method: 'PATCH',
        url: `/api/v1/user-attributes/${id}`,
        as: account.admin,
        body: { displayName: null, defaultValue: '[3]' },
      });
      expect(updated.body).toMatchObject({ displayName: null, defaultValue: '[3]', type: 'number_array' });
      const deleted = await account.request({ method: 'DELETE', url: `/api/v1/user-attributes/${id}`, as: account.admin });
      expect([deleted.status, deleted.body]).toEqual([200, { id, deleted: true }]);
      expect((await account.request({ method: 'GET', url: `/api/v1/user-attributes/${id}`, as: account.admin })).status).toBe(404);
    });

    it('409 for a taken name; 400 for a name that is not an identifier or a default that does not parse', async () => {
      const account = await server().newAccount();
      await createAttribute(account, { name: 'region', type: 'string' });
      const taken = await account.request({
        method: 'POST',
        url: '/api/v1/user-attributes',
        as: account.admin,
        body: { name: 'region', type: 'number' },
      });
      expect(taken.status).toBe(409);
      expect(taken.body.error).toContain('region');
      for (const body of [
        { name: 'has-dash', type: 'string' },
        { name: 'x'.repeat(101), type: 'string' },
        { name: 'ok', type: 'boolean' },
        { name: 'ok', type: 'number', defaultValue: 'ten' },
        { name: 'ok', type: 'string_array', defaultValue: '[1]' },
      ]) {
        const response = await account.request({ method: 'POST', url: '/api/v1/user-attributes', as: account.admin, body });
        expect(response.status, JSON.stringify(body)).toBe(400);
      }
    });

    it('PATCH with a different type is 400 "cannot change type"', async () => {
      const account = await server().newAccount();
      const { id } = await createAttribute(account, { name: 'tier', type: 'string' });
      const response = await account.request({
        method: 'PATCH',
        url: `/api/v1/user-attributes/${id}`,
        as: account.admin,
        body: { type: 'number' },
      });
      expect(response.status).toBe(400);
      expect(response.body.error).toBe('cannot change type');
    });
  });

  describe('values', () => {
    it('sets, overwrites the supplied names only, clears with null and reads back', async () => {
      const account = await server().newAccount();
      await createAttribute(account, { name: 'region', type: 'string' });
      await createAttribute(account, { name: 'levels', type: 'number_array' });
      const url = `/api/v1/users/${account.member.id}/attribute-values`;
      const put = (values: unknown[]) => account.request({ method: 'PUT', url, as: account.admin, body: { values } });
      const first = await put([
        { name: 'region', value: 'eu' },
        { name: 'levels', value: [1, 2] },
      ]);
      expect(first.status).toBe(200);
      expect(first.body).toEqual([
        { name: 'region', value: 'eu' },
        { name: 'levels', value: [1, 2] },
      ]);
      await put([{ name: 'region', value: 'us' }]);
      await put([{ name: 'levels', value: null }]);
      const read = await account.request({ method: 'GET', url, as: account.member });
      expect(read.status).toBe(200);
      expect(read.body).toEqual([{ name: 'region', value: 'us' }]);
    });

    it.each([
      [
        'a duplicate name (2.6 rule 3)',
        [
          { name: 'region', value: 'eu' },
          { name: 'region', value: 'us' },
        ],
        'region',
      ],
      [
        'an unknown name (2.6 rule 1)',
        [
          { name: 'region', value: 'eu' },
          { name: 'nope', value: 'x' },
        ],
        'User attributes not found',
      ],
      [
        'a value of the wrong type',
        [
          { name: 'region', value: 'eu' },
          { name: 'level', value: 'high' },
        ],
        '"level" has type number',
      ],
      ['a value outside 2.6 altogether', [{ name: 'region', value: true }], 'value'],
    ])('400 for %s, and nothing is written', async (_label, values, message) => {
      const account = await server().newAccount();
      await createAttribute(account, { name: 'region', type: 'string' });
      await createAttribute(account, { name: 'level', type: 'number' });
      const url = `/api/v1/users/${account.member.id}/attribute-values`;
      const response = await account.request({ method: 'PUT', url, as: account.admin, body: { values } });
      expect(response.status).toBe(400);
      expect(response.body.error).toContain(message);
      expect((await account.request({ method: 'GET', url, as: account.admin })).body).toEqual([]);
    });

    it('404 for an unknown user', async () => {
      const account = await server().newAccount();
      const response = await account.request({ method: 'GET', url: '/api/v1/users/999999/attribute-values', as: account.admin });
      expect(response.status).toBe(404);
    });
  });

  describe('authorisation', () => {
    authorizationSuite(server, cases);
  });
});
