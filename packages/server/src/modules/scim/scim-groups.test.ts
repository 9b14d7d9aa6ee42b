import { expect, it } from 'vitest';
import { describeOnStores } from '../../test-support/server.js';
import { URN } from './errors.js';
import { expectScimError, scimClient } from './scim-test-client.js';

describeOnStores('SCIM Groups', (server) => {
  const client = async () => scimClient(await server().newAccount());

  it('create is 201 with Location; the group is a tenant-wide group with its members', async () => {
    const scim = await client();
    const user = await scim.createUser();
    const response = await scim.call('POST', '/Groups', {
      schemas: [URN.group],
      displayName: 'Analysts',
      externalId: 'g-1',
      members: [{ value: user.id }],
    });
    expect(response.status, response.text).toBe(201);
    expect(response.headers.location).toBe(`http://${scim.account.host}/api/scim/v2/Groups/${response.body.id}`);
    expect(response.body).toMatchObject({
      schemas: [URN.group],
      displayName: 'Analysts',
      externalId: 'g-1',
      members: [{ value: user.id, type: 'User', $ref: `http://${scim.account.host}/api/scim/v2/Users/${user.id}` }],
      meta: { resourceType: 'Group' },
    });
    const internal = await server().services.groups.findByUuid(scim.account.id, response.body.id);
    expect(internal).toMatchObject({ name: 'Analysts', userCount: 1 });
  });

  it('displayName is unique: 409 uniqueness on create and on rename', async () => {
    const scim = await client();
    await scim.createGroup({ displayName: 'Taken' });
    expectScimError(await scim.call('POST', '/Groups', { schemas: [URN.group], displayName: 'Taken' }), 409, 'uniqueness');
    const other = await scim.createGroup();
    expectScimError(await scim.patch(`/Groups/${other.id}`, [{ op: 'replace', path: 'displayName', value: 'Taken' }]), 409, 'uniqueness');
  });

  it('displayName is unique ignoring case (caseExact false): "Admins" takes "admins"; a group may change its own case', async () => {
    const scim = await client();
    const admins = await scim.createGroup({ displayName: 'Admins' });
    expectScimError(await scim.call('POST', '/Groups', { schemas: [URN.group], displayName: 'admins' }), 409, 'uniqueness');
    const other = await scim.createGroup();
    expectScimError(await scim.patch(`/Groups/${other.id}`, [{ op: 'replace', path: 'displayName', value: 'ADMINS' }]), 409, 'uniqueness');
    const recased = await scim.patch(`/Groups/${admins.id}`, [{ op: 'replace', path: 'displayName', value: 'ADMINS' }]);
    expect(recased.status, recased.text).toBe(200);
    expect(recased.body.displayName).toBe('ADMINS');
    const bulk = await scim.call('POST', '/Bulk', {
      schemas: [URN.bulkRequest],
      Operations: [{ method: 'POST', bulkId: 'g', path: '/Groups', data: { schemas: [URN.group], displayName: 'admins' } }],
    });
    expect(bulk.body.Operations[0].status).toBe('409');
  });

  it('PUT replaces displayName and members exactly', async () => {
    const scim = await client();
    const [a, b] = [await scim.createUser(), await scim.createUser()];
    const group = await scim.createGroup({ members: [{ value: a.id }] });
    const response = await scim.call('PUT', `/Groups/${group.id}`, {
      schemas: [URN.group],
      id: group.id,
      displayName: 'Replaced',
      members: [{ value: b.id, display: 'b' }],
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.displayName).toBe('Replaced');
    expect(response.body.members.map((m: { value: string }) => m.value)).toEqual([b.id]);
    expect(response.body.externalId).toBeUndefined();
  });

  it('GET with excludedAttributes=members or attributes=displayName leaves members out', async () => {
    const scim = await client();
    const user = await scim.createUser();
    const group = await scim.createGroup({ members: [{ value: user.id }] });
    const excluded = await scim.call('GET', `/Groups/${group.id}?excludedAttributes=members`);
    expect(excluded.body.members).toBeUndefined();
    expect(excluded.body.displayName).toBe(group.displayName);
    const only = await scim.call('GET', `/Groups/${group.id}?attributes=displayName`);
    expect(Object.keys(only.body).sort()).toEqual(['displayName', 'id', 'schemas']);
    const listed = await scim.call('GET', `/Groups?excludedAttributes=members`);
    expect(listed.body.Resources[0].members).toBeUndefined();
  });

  it('delete is 204; the members stay; GET is then 404; If-Match of another version is 412', async () => {
    const scim = await client();
    const user = await scim.createUser();
    const group = await scim.createGroup({ members: [{ value: user.id }] });
    expectScimError(await scim.call('DELETE', `/Groups/${group.id}`, undefined, { 'if-match': 'W/"99"' }), 412);
    expect((await scim.call('DELETE', `/Groups/${group.id}`)).status).toBe(204);
    expectScimError(await scim.call('GET', `/Groups/${group.id}`), 404);
    expect((await scim.call('GET', `/Users/${user.id}`)).status).toBe(200);
  });

  it('If-None-Match of the current version is 304', async () => {
    const scim = await client();
    const group = await scim.createGroup();
    expect((await scim.call('GET', `/Groups/${group.id}`, undefined, { 'if-none-match': group.meta.version })).status).toBe(304);
  });

  it('a group with a member of another account is 400 invalidValue', async () => {
    const scim = await client();
    const stranger = await (await client()).createUser();
    expectScimError(
      await scim.call('POST', '/Groups', { schemas: [URN.group], displayName: 'x', members: [{ value: stranger.id }] }),
      400,
      'invalidValue',
    );
  });

  it('POST /Groups/.search', async () => {
    const scim = await client();
    const group = await scim.createGroup({ displayName: 'Searchable' });
    const response = await scim.call('POST', '/Groups/.search', { schemas: [URN.searchRequest], filter: 'displayName eq "searchable"' });
    expect(response.status, response.text).toBe(200);
    expect(response.body.Resources.map((g: { id: string }) => g.id)).toEqual([group.id]);
  });
});

describeOnStores('SCIM lists (RFC 7644 §3.4.2)', (server) => {
  async function withUsers(n: number) {
    const scim = await scimClient(await server().newAccount());
    const users = [];
    for (let i = 0; i < n; i++)
      users.push(await scim.createUser({ userName: `p${String(i).padStart(2, '0')}@list.example.com`, displayName: `D${9 - i}` }));
    return { scim, users };
  }
  const names = (body: any) => body.Resources.map((r: { userName: string }) => r.userName);
  const listFilter = encodeURIComponent('userName ew "@list.example.com"');

  it('the ListResponse has numeric totalResults, itemsPerPage, startIndex', async () => {
    const { scim } = await withUsers(3);
    const response = await scim.call('GET', `/Users?filter=${listFilter}&startIndex=2&count=1`);
    expect(response.body).toEqual({
      schemas: [URN.listResponse],
      totalResults: 3,
      itemsPerPage: 1,
      startIndex: 2,
      Resources: [expect.objectContaining({ userName: 'p01@list.example.com' })],
    });
  });

  it('startIndex is 1-based; pages cover the list exactly once', async () => {
    const { scim, users } = await withUsers(5);
    const seen: string[] = [];
    for (let start = 1; start <= 5; start += 2) {
      seen.push(...names((await scim.call('GET', `/Users?filter=${listFilter}&startIndex=${start}&count=2`)).body));
    }
    expect(seen).toEqual(users.map((u) => u.userName));
  });

  it('count=0 returns only totalResults; startIndex past the end returns no resources', async () => {
    const { scim } = await withUsers(2);
    const zero = await scim.call('GET', `/Users?filter=${listFilter}&count=0`);
    expect(zero.body).toMatchObject({ totalResults: 2, itemsPerPage: 0, Resources: [] });
    const past = await scim.call('GET', `/Users?filter=${listFilter}&startIndex=10`);
    expect(past.body).toMatchObject({ totalResults: 2, itemsPerPage: 0, startIndex: 10 });
  });

  it('startIndex below 1 is read as 1 and a negative count as 0', async () => {
    const { scim } = await withUsers(2);
    expect((await scim.call('GET', `/Users?filter=${listFilter}&startIndex=0`)).body).toMatchObject({ startIndex: 1, itemsPerPage: 2 });
    expect((await scim.call('GET', `/Users?filter=${listFilter}&count=-3`)).body).toMatchObject({ itemsPerPage: 0, totalResults: 2 });
  });

  it('sortBy and sortOrder', async () => {
    const { scim, users } = await withUsers(3);
    const byDisplay = await scim.call('GET', `/Users?filter=${listFilter}&sortBy=displayName`);
    expect(names(byDisplay.body)).toEqual(users.map((u) => u.userName).reverse());
    const descending = await scim.call('GET', `/Users?filter=${listFilter}&sortBy=userName&sortOrder=descending`);
    expect(names(descending.body)).toEqual(users.map((u) => u.userName).reverse());
    expectScimError(await scim.call('GET', `/Users?sortBy=userName&sortOrder=sideways`), 400, 'invalidValue');
    expectScimError(await scim.call('GET', `/Users?sortBy=favouriteColour`), 400, 'invalidFilter');
  });

  it('attributes and excludedAttributes; id and schemas always come back', async () => {
    const { scim, users } = await withUsers(1);
    const only = await scim.call('GET', `/Users?filter=${listFilter}&attributes=userName,name.givenName`);
    expect(only.body.Resources[0]).toEqual({
      schemas: [URN.user],
      id: users[0].id,
      userName: users[0].userName,
      name: { givenName: 'Jane' },
    });
    const without = await scim.call('GET', `/Users/${users[0].id}?excludedAttributes=meta,emails,id`);
    expect(without.body.id).toBe(users[0].id);
    expect(without.body.meta).toBeUndefined();
    expect(without.body.emails).toBeUndefined();
  });

  it('POST /Users/.search takes the same parameters in the body', async () => {
    const { scim, users } = await withUsers(3);
    const response = await scim.call('POST', '/Users/.search', {
      schemas: [URN.searchRequest],
      filter: 'userName ew "@list.example.com"',
      startIndex: 2,
      count: 1,
      attributes: ['userName'],
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({ totalResults: 3, startIndex: 2, Resources: [{ userName: users[1].userName }] });
    expect(response.body.Resources[0].name).toBeUndefined();
  });
});
