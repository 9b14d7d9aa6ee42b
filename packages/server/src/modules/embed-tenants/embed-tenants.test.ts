import { describe, expect, it } from 'vitest';
import { authorizationSuite } from '../../test-support/authorization.js';
import { describeOnStores, type TestAccount } from '../../test-support/server.js';
import { embedAccount } from '../embed/test-fixtures.js';
import { cases, seeded, TENANT } from './authorization.cases.js';

describeOnStores('embed tenants', (server) => {
  describe('4.4 groups and user attributes', () => {
    it('4.4 lists groups {id, name, description, userCount} and attributes with cursor pagination', async () => {
      const account = await embedAccount(server());
      const { groups, attributes } = await seeded(account);
      expect(groups).toEqual([
        { id: expect.any(Number), name: 'editors', description: 'Edit', userCount: 1 },
        { id: expect.any(Number), name: 'viewers', description: null, userCount: 1 },
      ]);
      expect(attributes).toEqual([
        { id: expect.any(Number), name: 'level', type: 'number', displayName: null, defaultValue: null, description: null },
        { id: expect.any(Number), name: 'region', type: 'string', displayName: 'Region', defaultValue: null, description: null },
      ]);
      const page1 = await account.request({ method: 'GET', url: `/api/v1/embed-tenants/${TENANT}/groups?first=1`, as: account.admin });
      expect(page1.body).toEqual({
        items: [groups[0]],
        pageInfo: { hasNextPage: true, hasPreviousPage: false, startCursor: expect.any(String), endCursor: expect.any(String) },
      });
      const page2 = await account.request({
        method: 'GET',
        url: `/api/v1/embed-tenants/${TENANT}/groups?first=1&after=${page1.body.pageInfo.endCursor}`,
        as: account.admin,
      });
      expect(page2.body.items).toEqual([groups[1]]);
      expect(page2.body.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    });

    it('4.4 deleting a group takes its memberships; deleting an attribute takes its values', async () => {
      const account = await embedAccount(server());
      const { groups, attributes } = await seeded(account);
      const del = (what: string, id: number) =>
        account.request({ method: 'DELETE', url: `/api/v1/embed-tenants/${TENANT}/${what}/${id}`, as: account.admin });
      expect((await del('groups', groups[0].id)).body).toEqual({ id: groups[0].id, deleted: true });
      expect((await del('user-attributes', attributes[1].id)).status).toBe(200);
      const user = await account.externalUser('ann', TENANT);
      expect(user.tenantGroups).toEqual(['viewers']);
      expect(user.tenantUserAttributes).toEqual([{ name: 'level', value: 2 }]);
      expect((await del('groups', groups[0].id)).status).toBe(404);
    });

    it('4.4 an id of another embed tenant or another account gets 404 and deletes nothing', async () => {
      const account = await embedAccount(server());
      const { groups, attributes } = await seeded(account);
      await account.generate({ externalId: 'x', creatorMode: true, embedTenantName: 'other-co' });
      for (const [what, id] of [
        ['groups', groups[0].id],
        ['user-attributes', attributes[0].id],
      ] as const) {
        const otherTenant = await account.request({
          method: 'DELETE',
          url: `/api/v1/embed-tenants/other-co/${what}/${id}`,
          as: account.admin,
        });
        expect(otherTenant.status).toBe(404);
      }
      const stranger = await embedAccount(server());
      await stranger.generate({ externalId: 'x', embedTenantName: TENANT });
      const foreign = await stranger.request({
        method: 'DELETE',
        url: `/api/v1/embed-tenants/${TENANT}/groups/${groups[0].id}`,
        as: stranger.admin,
      });
      expect(foreign.status).toBe(404);
      expect((await account.externalUser('ann', TENANT)).tenantGroups).toEqual(['editors', 'viewers']);
    });

    it.each(['groups', 'user-attributes', 'users', 'users/ann'])('4.4 an unknown embed tenant gets 404 on %s', async (what) => {
      const account = await embedAccount(server());
      for (const name of ['never-made', 'Bad_Name']) {
        const response = await account.request({ method: 'GET', url: `/api/v1/embed-tenants/${name}/${what}`, as: account.admin });
        expect(response.status).toBe(404);
        expect(response.body.error).toMatch(/Embed tenant/);
      }
    });
  });

  describe('external users', () => {
    it('lists and gets users with groups by name, tenant groups, values and times', async () => {
      const account = await embedAccount(server());
      await account.group('global');
      await account.attribute('plan', 'string');
      await account.generate({
        externalId: 'Bob',
        email: 'bob@example.com',
        userProfile: { displayName: 'Bob' },
        groups: ['global'],
        userAttributes: [{ name: 'plan', value: 'pro' }],
      });
      const user = await account.externalUser('BOB');
      expect(user).toEqual({
        externalId: 'bob',
        email: 'bob@example.com',
        userProfile: { displayName: 'Bob', picture: null },
        groups: ['global'],
        tenantGroups: [],
        userAttributes: [{ name: 'plan', value: 'pro' }],
        tenantUserAttributes: [],
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        expiresAt: null,
      });
      expect(await account.externalUser('nobody')).toBeUndefined();
    });
  });

  describe('4.5 provisioning', () => {
    const provision = (account: TestAccount, body: unknown, tenant = TENANT) =>
      account.request({ method: 'POST', url: `/api/v1/embed-tenants/${tenant}/user`, as: account.admin, body });
    const bulk = (account: TestAccount, users: unknown[], tenant = TENANT) =>
      account.request({ method: 'POST', url: `/api/v1/embed-tenants/${tenant}/users`, as: account.admin, body: { users } });

    it('4.5 rules 1, 3, 4: creates the tenant on demand, then updates an existing externalId', async () => {
      const account = await embedAccount(server());
      await account.group('global');
      const created = await provision(account, {
        externalId: ' Carol ',
        email: 'carol@example.com',
        userProfile: { displayName: 'Carol' },
        groups: ['global'],
      });
      expect(created.status, created.text).toBe(200);
      expect(created.body).toMatchObject({ externalId: 'carol', email: 'carol@example.com', groups: ['global'], tenantGroups: [] });
      const updated = await provision(account, { externalId: 'carol', userProfile: { picture: 'https://x.example.com/c.png' } });
      expect(updated.body).toMatchObject({
        email: 'carol@example.com',
        userProfile: { displayName: 'Carol', picture: 'https://x.example.com/c.png' },
        groups: ['global'],
      });
    });

    it('4.5 rule 2: groups and tenantGroups each follow 2.7', async () => {
      const account = await embedAccount(server());
      await account.group('g1');
      await account.group('g2');
      await seeded(account);
      const user = async (body: Record<string, unknown>) => (await provision(account, { externalId: 'dan', ...body })).body;
      expect(await user({ groups: ['g1', 'g2'], tenantGroups: ['editors'] })).toMatchObject({
        groups: ['g1', 'g2'],
        tenantGroups: ['editors'],
      });
      expect(await user({})).toMatchObject({ groups: ['g1', 'g2'], tenantGroups: ['editors'] });
      expect(await user({ groups: ['g2'] })).toMatchObject({ groups: ['g2'], tenantGroups: ['editors'] });
      expect(await user({ tenantGroups: [] })).toMatchObject({ groups: ['g2'], tenantGroups: [] });
      const missing = await provision(account, { externalId: 'dan', tenantGroups: ['nope', 'editors', 'nada'] });
      expect(missing.status).toBe(400);
      expect(missing.body.error).toBe('Groups with names nope, nada not found');
    });

    it.each(['userAttributes', 'securityContext'])('4.5 rule 1: %s is rejected', async (field) => {
      const account = await embedAccount(server());
      const single = await provision(account, { externalId: 'erin', [field]: field === 'userAttributes' ? [] : {} });
      expect(single.status).toBe(400);
      expect(single.body.error).toContain(field);
      const many = await bulk(account, [{ externalId: 'erin', [field]: field === 'userAttributes' ? [] : {} }]);
      expect(many.body.failed[0].error).toMatchObject({ status: 400, message: expect.stringContaining(field) });
    });

    it('4.5 rule 5: bulk reports every entry in order; failures change nothing for themselves and not the others', async () => {
      const account = await embedAccount(server());
      await account.group('g1');
      await provision(account, { externalId: 'kept', userProfile: { displayName: 'Before' }, groups: ['g1'] });
      const response = await bulk(account, [
        { externalId: 'A1', groups: ['g1'] },
        { externalId: 'kept', userProfile: { displayName: 'After' }, groups: ['missing'] },
        'not an object',
        { externalId: '   ' },
        { externalId: 'a2', userProfile: { picture: 'ftp://x' } },
        { externalId: 'a1', email: 'a1@example.com' },
        { externalId: 'a3', colour: 'red' },
      ]);
      expect(response.status).toBe(200);
      expect(response.body.succeeded).toEqual([
        { index: 0, externalId: 'a1' },
        { index: 5, externalId: 'a1' },
      ]);
      expect(response.body.failed.map((f: { index: number }) => f.index)).toEqual([1, 2, 3, 4, 6]);
      expect(response.body.failed[0]).toEqual({
        index: 1,
        externalId: 'kept',
        error: { status: 400, message: 'Groups with names missing not found' },
      });
      expect(response.body.failed[1]).toMatchObject({ externalId: null, error: { status: 400 } });
      expect(response.body.failed[4].error.message).toContain('colour');
      expect(await account.externalUser('kept', TENANT)).toMatchObject({ userProfile: { displayName: 'Before' }, groups: ['g1'] });
      expect(await account.externalUser('a1', TENANT)).toMatchObject({ email: 'a1@example.com', groups: ['g1'] });
      expect(await account.externalUser('a2', TENANT)).toBeUndefined();
    });

    it('4.5 rule 6: more entries than bulkActionLimit rejects the whole request with 400 naming the limit', async () => {
      const account = await embedAccount(server());
      await server().services.tenantSettings.update(account.id, { bulkActionLimit: 2 });
      const refused = await bulk(account, [{ externalId: 'a' }, { externalId: 'b' }, { externalId: 'c' }]);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatch(/bulkActionLimit\) is 2/);
      expect(await account.footprint()).toMatchObject({ external_user: 0 });
      expect((await bulk(account, [{ externalId: 'a' }, { externalId: 'b' }])).body.succeeded).toHaveLength(2);
    });

    it('4.5: the body must be an object with a users array', async () => {
      const account = await embedAccount(server());
      for (const body of [{}, { users: {} }, [], { users: [], extra: 1 }]) {
        const response = await account.request({ method: 'POST', url: `/api/v1/embed-tenants/${TENANT}/users`, as: account.admin, body });
        expect(response.status).toBe(400);
      }
    });

    it('4.5: an invalid embed tenant name gets 400 and creates nothing', async () => {
      const account = await embedAccount(server());
      const response = await provision(account, { externalId: 'x' }, 'No_Good');
      expect(response.status).toBe(400);
      expect(response.body.error).toContain('embedTenantName');
      expect(await account.footprint()).toMatchObject({ embed_tenant: 0 });
    });
  });

  describe('authorisation', () => {
    authorizationSuite(server, cases);
  });
});
