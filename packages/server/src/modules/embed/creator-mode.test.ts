import { describe, expect, it } from 'vitest';
import { describeOnStores } from '../../test-support/server.js';
import { embedAccount, mintClaims, type EmbedAccount } from './test-fixtures.js';

const TENANT = 'acme-corp';

async function creator(server: Parameters<typeof embedAccount>[0]): Promise<EmbedAccount> {
  const account = await embedAccount(server);
  await account.creatorMode();
  return account;
}

const listOf = async (account: EmbedAccount, what: 'groups' | 'user-attributes') => {
  const response = await account.request({ method: 'GET', url: `/api/v1/embed-tenants/${TENANT}/${what}`, as: account.admin });
  expect(response.status, response.text).toBe(200);
  return response.body.items;
};

describeOnStores('creator mode definitions', (server) => {
  describe('2.9 rule 1: definitions need creatorMode, embedTenantName and the tenant flag', () => {
    it.each([
      ['without creatorMode', { embedTenantName: TENANT }, true, /requires creatorMode: true/],
      ['with creatorMode false', { embedTenantName: TENANT, creatorMode: false }, true, /requires creatorMode: true/],
      ['without embedTenantName', { creatorMode: true }, true, /requires an embedTenantName/],
      ['without the useCreatorMode flag', { creatorMode: true, embedTenantName: TENANT }, false, /useCreatorMode/],
    ])('%s: groupDefinitions and userAttributeDefinitions are rejected', async (_label, extra, flag, message) => {
      const account = await embedAccount(server());
      if (flag) await account.creatorMode();
      for (const definitions of [{ groupDefinitions: [{ name: 'g' }] }, { userAttributeDefinitions: [{ name: 'a', type: 'string' }] }]) {
        const response = await account.generate({ externalId: 'ann', ...extra, ...definitions });
        expect(response.status).toBe(400);
        expect(response.body.error).toMatch(message);
      }
      expect(await account.footprint()).toMatchObject({ embed_group: 0, embed_user_attribute: 0, external_user: 0 });
    });

    it.each([
      ['groupDefinitions', { groupDefinitions: [{ name: 'g' }, { name: 'g', description: 'x' }] }],
      [
        'userAttributeDefinitions',
        {
          userAttributeDefinitions: [
            { name: 'a', type: 'string' },
            { name: 'a', type: 'number' },
          ],
        },
      ],
    ])('2.8 rule 2 / 2.9: duplicate names in %s get 400', async (field, body) => {
      const account = await creator(server());
      const response = await account.generate({ externalId: 'ann', creatorMode: true, embedTenantName: TENANT, ...body });
      expect(response.status).toBe(400);
      expect(response.body.error).toContain(field);
    });
  });

  describe('2.8 and 2.9 upserts', () => {
    it('2.9 rule 4: one request can define names and use them; 2.9 rule 2: tenant-wide catalogs are untouched', async () => {
      const account = await creator(server());
      const claims = await mintClaims(account, {
        externalId: 'ann',
        creatorMode: true,
        embedTenantName: TENANT,
        groupDefinitions: [{ name: 'editors', description: 'Can edit' }],
        userAttributeDefinitions: [{ name: 'region', type: 'string', displayName: 'Region' }],
        groups: ['editors'],
        userAttributes: [{ name: 'region', value: 'emea' }],
      });
      expect(claims).toMatchObject({ creatorMode: true, embedTenant: TENANT, groups: ['editors'], userAttributes: { region: 'emea' } });
      const user = await account.externalUser('ann', TENANT);
      expect(user).toMatchObject({
        groups: [],
        tenantGroups: ['editors'],
        userAttributes: [],
        tenantUserAttributes: [{ name: 'region', value: 'emea' }],
      });
      expect((await server().services.groups.list(account.id, {})).items).toEqual([]);
      expect((await server().services.userAttributes.list(account.id, {})).items).toEqual([]);
      expect(await listOf(account, 'groups')).toEqual([{ id: expect.any(Number), name: 'editors', description: 'Can edit', userCount: 1 }]);
    });

    it('2.9 rule 3: the same request twice gives the same end state', async () => {
      const account = await creator(server());
      const body = {
        externalId: 'ann',
        creatorMode: true,
        embedTenantName: TENANT,
        groupDefinitions: [{ name: 'g1', description: 'd' }, { name: 'g2' }],
        userAttributeDefinitions: [{ name: 'level', type: 'number', defaultValue: '1', description: 'x' }],
        groups: ['g1', 'g2'],
        userAttributes: [{ name: 'level', value: 5 }],
      };
      expect((await account.generate(body)).status).toBe(200);
      const first = { ...(await account.footprint()), embed_session: 0 };
      expect((await account.generate(body)).status).toBe(200);
      expect({ ...(await account.footprint()), embed_session: 0 }).toEqual(first);
    });

    it('2.8: displayName, defaultValue and description change only when supplied and different', async () => {
      const account = await creator(server());
      const define = (definition: Record<string, unknown>) =>
        account.generate({
          externalId: 'ann',
          creatorMode: true,
          embedTenantName: TENANT,
          userAttributeDefinitions: [{ name: 'region', type: 'string', ...definition }],
        });
      await define({ displayName: 'Region', defaultValue: 'emea', description: 'Sales region' });
      await define({});
      expect((await listOf(account, 'user-attributes'))[0]).toMatchObject({
        displayName: 'Region',
        defaultValue: 'emea',
        description: 'Sales region',
      });
      await define({ description: 'Where they sell' });
      expect((await listOf(account, 'user-attributes'))[0]).toMatchObject({
        name: 'region',
        type: 'string',
        displayName: 'Region',
        defaultValue: 'emea',
        description: 'Where they sell',
      });
    });

    it('2.9: a group description is updated when supplied and never cleared', async () => {
      const account = await creator(server());
      const define = (definition: Record<string, unknown>) =>
        account.generate({
          externalId: 'ann',
          creatorMode: true,
          embedTenantName: TENANT,
          groupDefinitions: [{ name: 'g', ...definition }],
        });
      await define({ description: 'first' });
      await define({});
      expect((await listOf(account, 'groups'))[0].description).toBe('first');
      await define({ description: 'second' });
      expect((await listOf(account, 'groups'))[0].description).toBe('second');
    });

    it('2.8 rule 1: a type change fails with "cannot change type" and upserts nothing', async () => {
      const account = await creator(server());
      await account.generate({
        externalId: 'ann',
        creatorMode: true,
        embedTenantName: TENANT,
        userAttributeDefinitions: [{ name: 'level', type: 'number' }],
      });
      const before = await account.footprint();
      const response = await account.generate({
        externalId: 'bob',
        creatorMode: true,
        embedTenantName: TENANT,
        groupDefinitions: [{ name: 'new-group' }],
        userAttributeDefinitions: [
          { name: 'another', type: 'string' },
          { name: 'level', type: 'string', description: 'changed' },
        ],
      });
      expect(response.status).toBe(400);
      expect(response.body.error).toBe('cannot change type');
      expect(await account.footprint()).toEqual(before);
    });

    it('2.8 rule 1: after deleting the attribute the name can be recreated with another type', async () => {
      const account = await creator(server());
      await account.generate({
        externalId: 'ann',
        creatorMode: true,
        embedTenantName: TENANT,
        userAttributeDefinitions: [{ name: 'level', type: 'number' }],
        userAttributes: [{ name: 'level', value: 3 }],
      });
      const [attribute] = await listOf(account, 'user-attributes');
      const deleted = await account.request({
        method: 'DELETE',
        url: `/api/v1/embed-tenants/${TENANT}/user-attributes/${attribute.id}`,
        as: account.admin,
      });
      expect(deleted.status).toBe(200);
      expect((await account.externalUser('ann', TENANT)).tenantUserAttributes).toEqual([]);
      const recreated = await account.generate({
        externalId: 'ann',
        creatorMode: true,
        embedTenantName: TENANT,
        userAttributeDefinitions: [{ name: 'level', type: 'string' }],
        userAttributes: [{ name: 'level', value: 'high' }],
      });
      expect(recreated.status, recreated.text).toBe(200);
      expect((await listOf(account, 'user-attributes'))[0]).toMatchObject({ name: 'level', type: 'string' });
    });

    it('2.8: a defaultValue that does not fit the type is rejected', async () => {
      const account = await creator(server());
      const response = await account.generate({
        externalId: 'ann',
        creatorMode: true,
        embedTenantName: TENANT,
        userAttributeDefinitions: [{ name: 'level', type: 'number', defaultValue: 'high' }],
      });
      expect(response.status).toBe(400);
      expect(response.body.error).toContain('defaultValue');
    });
  });

  describe('2.6 rule 2 and 2.7 rule 2: creator mode resolves against the embed tenant own catalog', () => {
    it('names of tenant-wide groups and attributes are not found in creator mode', async () => {
      const account = await creator(server());
      await account.group('global-group');
      await account.attribute('global_attr', 'string');
      const groups = await account.generate({ externalId: 'ann', creatorMode: true, embedTenantName: TENANT, groups: ['global-group'] });
      expect(groups.body.error).toBe('Groups with names global-group not found');
      const attributes = await account.generate({
        externalId: 'ann',
        creatorMode: true,
        embedTenantName: TENANT,
        userAttributes: [{ name: 'global_attr', value: 'x' }],
      });
      expect(attributes.body.error).toBe('User attributes not found');
    });

    it('scoped definitions of one embed tenant are invisible to another', async () => {
      const account = await creator(server());
      await account.generate({ externalId: 'ann', creatorMode: true, embedTenantName: TENANT, groupDefinitions: [{ name: 'mine' }] });
      const other = await account.generate({ externalId: 'ann', creatorMode: true, embedTenantName: 'other-co', groups: ['mine'] });
      expect(other.body.error).toBe('Groups with names mine not found');
    });

    it('creator mode without embedTenantName uses the default embed tenant scope', async () => {
      const account = await creator(server());
      const claims = await mintClaims(account, { externalId: 'ann', creatorMode: true, groups: [] });
      expect(claims).toMatchObject({ creatorMode: true, embedTenant: account.name, groups: [] });
    });
  });
});
