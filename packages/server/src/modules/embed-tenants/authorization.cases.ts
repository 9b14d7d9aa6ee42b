import { expect } from 'vitest';
import type { OperationCase } from '../../test-support/authorization.js';
import type { TestAccount, TestServer } from '../../test-support/server.js';
import type { EmbedAccount } from '../embed/test-fixtures.js';

export const TENANT = 'acme-corp';

/** An embed tenant with two scoped groups, two scoped attributes and a user in both groups. */
export async function seeded(account: EmbedAccount) {
  await account.creatorMode();
  const response = await account.generate({
    externalId: 'ann',
    creatorMode: true,
    embedTenantName: TENANT,
    groupDefinitions: [{ name: 'editors', description: 'Edit' }, { name: 'viewers' }],
    userAttributeDefinitions: [
      { name: 'region', type: 'string', displayName: 'Region' },
      { name: 'level', type: 'number' },
    ],
    groups: ['editors', 'viewers'],
    userAttributes: [
      { name: 'region', value: 'emea' },
      { name: 'level', value: 2 },
    ],
  });
  expect(response.status, response.text).toBe(200);
  const get = (what: string) => account.request({ method: 'GET', url: `/api/v1/embed-tenants/${TENANT}/${what}`, as: account.admin });
  return { groups: (await get('groups')).body.items, attributes: (await get('user-attributes')).body.items };
}

/** A plain test account made into the embed account `seeded` expects, with a deployment of its own. */
const tenantWith = async (account: TestAccount, server: TestServer) => {
  const embed = { ...account, ref: { id: account.id, name: account.name } } as unknown as EmbedAccount;
  const deployment = await server.services.deployments.create(account.id, { name: 'd' }, 'http://localhost');
  embed.deploymentId = deployment.id;
  embed.generate = (body) =>
    account.request({
      method: 'POST',
      url: '/api/v1/embed/generate-session',
      as: account.admin,
      body: { deploymentId: deployment.id, ...body },
    });
  embed.creatorMode = async () => {
    await server.services.tenantSettings.update(account.id, { useCreatorMode: true });
  };
  return seeded(embed);
};
const base = `/api/v1/embed-tenants/${TENANT}`;

/** The embed tenants' operations, for the shared authorisation suite (run by embed-tenants.test.ts). */
export const cases: OperationCase[] = [
  { operation: 'getGroups', method: 'GET', prepare: async (a, s) => (await tenantWith(a, s), { url: `${base}/groups` }) },
  { operation: 'getUserAttributes', method: 'GET', prepare: async (a, s) => (await tenantWith(a, s), { url: `${base}/user-attributes` }) },
  { operation: 'listEmbedTenantUsers', method: 'GET', prepare: async (a, s) => (await tenantWith(a, s), { url: `${base}/users` }) },
  { operation: 'getEmbedTenantUser', method: 'GET', prepare: async (a, s) => (await tenantWith(a, s), { url: `${base}/users/ann` }) },
  {
    operation: 'deleteEmbedTenantGroup',
    method: 'DELETE',
    successStatus: 200,
    prepare: async (a, s) => ({ url: `${base}/groups/${(await tenantWith(a, s)).groups[0].id}` }),
  },
  {
    operation: 'deleteEmbedTenantUserAttribute',
    method: 'DELETE',
    successStatus: 200,
    prepare: async (a, s) => ({ url: `${base}/user-attributes/${(await tenantWith(a, s)).attributes[0].id}` }),
  },
  {
    operation: 'provisionEmbedUser',
    method: 'POST',
    targetsResource: false,
    prepare: async () => ({ url: `${base}/user`, body: { externalId: 'zed' } }),
  },
  {
    operation: 'provisionEmbedUsers',
    method: 'POST',
    targetsResource: false,
    prepare: async () => ({ url: `${base}/users`, body: { users: [{ externalId: 'zed' }] } }),
  },
];
