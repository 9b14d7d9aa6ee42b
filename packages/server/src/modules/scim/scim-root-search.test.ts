import { beforeAll, expect, it } from 'vitest';
import { describeOnStores } from '../../test-support/server.js';
import { URN } from './errors.js';
import { expectScimError, scimClient, type ScimTestClient } from './scim-test-client.js';

/** Three users (two of the account's own, one SCIM-made) and two groups; every test only reads. */
describeOnStores('SCIM POST /.search at the root (RFC 7644 §3.4.3)', (server) => {
  let scim: ScimTestClient;
  let userIds: string[];
  let groupIds: string[];
  beforeAll(async () => {
    scim = await scimClient(await server().newAccount());
    const made = await scim.createUser({ userName: 'root.search@example.com', displayName: 'Shared Name' });
    const a = await scim.createGroup({ displayName: 'Shared Name', members: [{ value: made.id }] });
    const b = await scim.createGroup({ displayName: 'Other group' });
    const users = await scim.call('GET', '/Users');
    userIds = users.body.Resources.map((r: { id: string }) => r.id);
    groupIds = [a.id, b.id];
  });

  const search = (body: Record<string, unknown>) => scim.call('POST', '/.search', { schemas: [URN.searchRequest], ...body });
  const ids = (body: { Resources: Array<{ id: string }> }) => body.Resources.map((r) => r.id);

  it('returns users then groups in one ListResponse, each with its own schema and resourceType', async () => {
    const response = await search({});
    expect(response.status, response.text).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/scim\+json/);
    expect(response.body).toMatchObject({ schemas: [URN.listResponse], totalResults: 5, itemsPerPage: 5, startIndex: 1 });
    expect(ids(response.body)).toEqual([...userIds, ...groupIds]);
    const types = response.body.Resources.map((r: any) => [r.schemas[0], r.meta.resourceType]);
    expect(types).toEqual([...userIds.map(() => [URN.user, 'User']), ...groupIds.map(() => [URN.group, 'Group'])]);
    expect(response.body.Resources[3].members).toHaveLength(1);
  });

  it.each<[string, string, () => string[]]>([
    ['meta.resourceType narrows to groups', 'meta.resourceType eq "Group"', () => groupIds],
    ['meta.resourceType narrows to users', 'meta.resourceType eq "User"', () => userIds],
    ['an attribute only users have matches no group', 'userName eq "ROOT.search@example.com"', () => [userIds[2]!]],
    ['an attribute both have matches both, case-insensitively', 'displayName eq "shared name"', () => [userIds[2]!, groupIds[0]!]],
    ['members only groups have', 'members pr', () => [groupIds[0]!]],
  ])('%s', async (_label, filter, expected) => {
    const response = await search({ filter });
    expect(response.status, response.text).toBe(200);
    expect(ids(response.body)).toEqual(expected());
    expect(response.body.totalResults).toBe(expected().length);
  });

  it('startIndex and count page across the two types', async () => {
    const pages = [];
    for (const startIndex of [1, 3, 5]) {
      const response = await search({ startIndex, count: 2 });
      expect(response.body).toMatchObject({ totalResults: 5, startIndex });
      pages.push(...ids(response.body));
    }
    expect(pages).toEqual([...userIds, ...groupIds]);
    expect((await search({ count: 0 })).body).toMatchObject({ totalResults: 5, itemsPerPage: 0, Resources: [] });
  });

  it('attributes apply to every type: id and schemas always come back', async () => {
    const response = await search({ attributes: ['displayName'], filter: 'displayName pr' });
    expect(response.body.Resources.every((r: Record<string, unknown>) => Object.keys(r).sort().join() === 'displayName,id,schemas')).toBe(
      true,
    );
  });

  it.each([
    ['an attribute no type has', { filter: 'favoriteColor eq "x"' }],
    ['a malformed filter', { filter: 'userName eq' }],
    ['a sortBy no type has', { sortBy: 'favoriteColor' }],
  ])('%s is 400 invalidFilter', async (_label, body) => {
    expectScimError(await search(body), 400, 'invalidFilter');
  });
});
