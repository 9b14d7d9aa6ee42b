import { describe, expect, it } from 'vitest';
import { authorizationSuite } from '../../test-support/authorization.js';
import { describeOnStores, TEST_BASE_DOMAIN, type TestAccount } from '../../test-support/server.js';
import { cases } from './authorization.cases.js';

const create = (account: TestAccount, body: unknown) =>
  account.request({ method: 'POST', url: '/api/v1/deployments', as: account.admin, body });

describeOnStores(
  'deployments (minimal)',
  (server) => {
    it('creates, lists and gets a deployment with its host-based deploymentUrl (PLINTH_BASE_DOMAIN is set)', async () => {
      const account = await server().newAccount();
      const created = await create(account, { name: 'Production', region: 'eu-west-1' });
      expect(created.status).toBe(201);
      const { id } = created.body;
      expect(created.body).toEqual({
        id,
        name: 'Production',
        region: 'eu-west-1',
        deploymentUrl: `http://production-${id}.${TEST_BASE_DOMAIN}`,
        creationStep: 'created',
        createdAt: expect.any(String),
      });
      const got = await account.request({ method: 'GET', url: `/api/v1/deployments/${id}`, as: account.member });
      expect(got.body).toEqual(created.body);
      const list = await account.request({ method: 'GET', url: '/api/v1/deployments', as: account.member });
      expect(list.body).toEqual({
        items: [created.body],
        pageInfo: { hasNextPage: false, hasPreviousPage: false, startCursor: expect.any(String), endCursor: expect.any(String) },
      });
    });

    it.each([
      [{}, /required property "name"/],
      [{ name: '' }, /name/],
      [{ name: 'x', region: 5 }, /region/],
    ])('rejects %j', async (body, message) => {
      const account = await server().newAccount();
      const response = await create(account, body);
      expect(response.status).toBe(400);
      expect(response.body.error).toMatch(message);
    });

    it('a missing deployment is 404 and a bad cursor is 400', async () => {
      const account = await server().newAccount();
      expect((await account.request({ method: 'GET', url: '/api/v1/deployments/424242', as: account.admin })).status).toBe(404);
      const bad = await account.request({ method: 'GET', url: '/api/v1/deployments?after=zzz', as: account.admin });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toContain('cursor');
    });

    describe('authorisation', () => {
      authorizationSuite(server, cases);
    });
  },
  { PLINTH_REGIONS: 'local,eu-west-1' },
);
