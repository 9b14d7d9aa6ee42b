import { describe, expect, it } from 'vitest';
import { describeOnStores } from '../../test-support/server.js';
import { expectScimError, scimClient } from './scim-test-client.js';
import { URN } from './errors.js';

const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';

describeOnStores('SCIM PATCH (RFC 7644 §3.5.2)', (server) => {
  const client = async () => scimClient(await server().newAccount());

  describe('user operations as clients send them', () => {
    it.each<[string, unknown[], Record<string, unknown>]>([
      ['replace with a path', [{ op: 'replace', path: 'displayName', value: 'Renamed' }], { displayName: 'Renamed' }],
      [
        'replace of a sub-attribute',
        [{ op: 'replace', path: 'name.familyName', value: 'Roe' }],
        { name: { givenName: 'Jane', familyName: 'Roe' } },
      ],
      ['replace without a path, object value (Okta deactivate)', [{ op: 'replace', value: { active: false } }], { active: false }],
      [
        'replace without a path with dotted keys (Entra ID)',
        [{ op: 'Replace', value: { 'name.givenName': 'Janet', displayName: 'J' } }],
        { name: { givenName: 'Janet' }, displayName: 'J' },
      ],
      ['op name in any case', [{ op: 'Replace', path: 'displayName', value: 'Upper' }], { displayName: 'Upper' }],
      ['boolean sent as the string "False" (Entra ID)', [{ op: 'Replace', path: 'active', value: 'False' }], { active: false }],
      [
        'boolean sent as the string "True"',
        [
          { op: 'replace', path: 'active', value: 'False' },
          { op: 'replace', path: 'active', value: 'True' },
        ],
        { active: true },
      ],
      ['add with a path', [{ op: 'add', path: 'externalId', value: 'ext-9' }], { externalId: 'ext-9' }],
      [
        'add without a path',
        [{ op: 'ADD', value: { displayName: 'Added', name: { familyName: 'Added' } } }],
        { displayName: 'Added', name: { givenName: 'Jane', familyName: 'Added' } },
      ],
      [
        'add of a complex attribute merges its sub-attributes',
        [{ op: 'add', path: 'name', value: { givenName: 'G' } }],
        { name: { givenName: 'G', familyName: 'Doe' } },
      ],
      [
        'path with the schema URN',
        [{ op: 'replace', path: 'urn:ietf:params:scim:schemas:core:2.0:User:displayName', value: 'U' }],
        { displayName: 'U' },
      ],
      [
        'several operations in order',
        [
          { op: 'add', path: 'displayName', value: 'one' },
          { op: 'replace', path: 'displayName', value: 'two' },
        ],
        { displayName: 'two' },
      ],
    ])('%s', async (_label, operations, expected) => {
      const scim = await client();
      const user = await scim.createUser();
      const response = await scim.patch(`/Users/${user.id}`, operations);
      expect(response.status, response.text).toBe(200);
      expect(response.body).toMatchObject(expected);
      expect((await scim.call('GET', `/Users/${user.id}`)).body).toMatchObject(expected);
    });

    it('remove with a path unassigns the attribute', async () => {
      const scim = await client();
      const user = await scim.createUser({ displayName: 'Gone', externalId: 'x' });
      const response = await scim.patch(`/Users/${user.id}`, [
        { op: 'remove', path: 'displayName' },
        { op: 'Remove', path: 'name.givenName' },
      ]);
      expect(response.status, response.text).toBe(200);
      expect(response.body.displayName).toBeUndefined();
      expect(response.body.name).toEqual({ familyName: 'Doe' });
      expect(response.body.externalId).toBe('x');
    });

    it("issue 10: the core and enterprise attributes of Entra ID's default mapping are stored and returned", async () => {
      const scim = await client();
      const user = await scim.createUser();
      const response = await scim.patch(`/Users/${user.id}`, [
        { op: 'Add', path: `${ENTERPRISE}:employeeNumber`, value: '42' },
        { op: 'Add', path: 'title', value: 'Engineer' },
        { op: 'Replace', path: 'addresses[type eq "work"].formatted', value: '1 Main St' },
        { op: 'Replace', value: { [ENTERPRISE]: { department: 'R&D' }, preferredLanguage: 'en' } },
      ]);
      expect(response.status, response.text).toBe(200);
      expect(response.body).toMatchObject({
        schemas: [URN.user, ENTERPRISE],
        userName: user.userName,
        title: 'Engineer',
        preferredLanguage: 'en',
        addresses: [{ type: 'work', formatted: '1 Main St' }],
        [ENTERPRISE]: { employeeNumber: '42', department: 'R&D' },
      });
      expect(response.body.meta.version).not.toBe(user.meta.version);
      expect((await scim.call('GET', `/Users/${user.id}`)).body).toEqual(response.body);
    });
  });

  describe('errors, and a failing PATCH changes nothing', () => {
    it.each<[string, unknown[], number, string]>([
      ['remove without a path', [{ op: 'remove' }], 400, 'noTarget'],
      ['an unknown op', [{ op: 'merge', path: 'displayName', value: 'x' }], 400, 'invalidSyntax'],
      ['replace without a path and a non-object value', [{ op: 'replace', value: 'x' }], 400, 'invalidSyntax'],
      ['a malformed path', [{ op: 'replace', path: 'name..givenName', value: 'x' }], 400, 'invalidPath'],
      ['a malformed filter in the path', [{ op: 'replace', path: 'emails[type eq].value', value: 'x' }], 400, 'invalidFilter'],
      ['a value of the wrong type', [{ op: 'replace', path: 'active', value: 'maybe' }], 400, 'invalidValue'],
      ['removing the required userName', [{ op: 'remove', path: 'userName' }], 400, 'mutability'],
      ['changing id', [{ op: 'replace', path: 'id', value: '00000000-0000-4000-8000-000000000000' }], 400, 'mutability'],
      ['changing meta', [{ op: 'replace', path: 'meta.created', value: '2001-01-01T00:00:00Z' }], 400, 'mutability'],
      ['removing meta', [{ op: 'remove', path: 'meta' }], 400, 'mutability'],
    ])('%s is %i %s', async (_label, operations, status, scimType) => {
      const scim = await client();
      const user = await scim.createUser({ displayName: 'Before' });
      const response = await scim.patch(`/Users/${user.id}`, [{ op: 'replace', path: 'displayName', value: 'After' }, ...operations]);
      expectScimError(response, status, scimType);
      const after = await scim.call('GET', `/Users/${user.id}`);
      expect(after.body.displayName).toBe('Before');
      expect(after.body.meta.version).toBe(user.meta.version);
    });

    it('restating the current id (as Okta does) is not a change', async () => {
      const scim = await client();
      const user = await scim.createUser();
      const response = await scim.patch(`/Users/${user.id}`, [{ op: 'replace', value: { id: user.id, active: false } }]);
      expect(response.status, response.text).toBe(200);
      expect(response.body.active).toBe(false);
    });

    it('an unknown user is 404', async () => {
      const scim = await client();
      expectScimError(await scim.patch('/Users/00000000-0000-4000-8000-000000000000', [{ op: 'replace', value: { active: false } }]), 404);
    });

    it('a PATCH body without Operations is 400 invalidSyntax', async () => {
      const scim = await client();
      const user = await scim.createUser();
      expectScimError(
        await scim.call('PATCH', `/Users/${user.id}`, { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'] }),
        400,
        'invalidSyntax',
      );
    });
  });

  describe('group members', () => {
    async function groupWith(memberCount: number) {
      const scim = await client();
      const users = [];
      for (let i = 0; i < memberCount; i++) users.push(await scim.createUser());
      const group = await scim.createGroup({ members: users.slice(0, 2).map((u) => ({ value: u.id })) });
      const members = async () => {
        const response = await scim.call('GET', `/Groups/${group.id}`);
        return response.body.members.map((m: { value: string }) => m.value).sort();
      };
      return { scim, users, group, members };
    }

    it('add members (Okta), twice changes nothing the second time', async () => {
      const { scim, users, group, members } = await groupWith(3);
      const op = [{ op: 'add', path: 'members', value: [{ value: users[2].id, display: users[2].userName }] }];
      expect((await scim.patch(`/Groups/${group.id}`, op)).status).toBe(200);
      expect((await scim.patch(`/Groups/${group.id}`, op)).status).toBe(200);
      expect(await members()).toEqual(users.map((u) => u.id).sort());
    });

    it('remove with the path members[value eq "<id>"] (Okta)', async () => {
      const { scim, users, group, members } = await groupWith(2);
      const response = await scim.patch(`/Groups/${group.id}`, [{ op: 'remove', path: `members[value eq "${users[0].id}"]` }]);
      expect(response.status, response.text).toBe(200);
      expect(await members()).toEqual([users[1].id]);
    });

    it('remove with the path members and a list of values (Entra ID)', async () => {
      const { scim, users, group, members } = await groupWith(2);
      const response = await scim.patch(`/Groups/${group.id}`, [{ op: 'Remove', path: 'members', value: [{ value: users[1].id }] }]);
      expect(response.status, response.text).toBe(200);
      expect(await members()).toEqual([users[0].id]);
    });

    it('replace members replaces all of them', async () => {
      const { scim, users, group, members } = await groupWith(3);
      const response = await scim.patch(`/Groups/${group.id}`, [{ op: 'replace', path: 'members', value: [{ value: users[2].id }] }]);
      expect(response.status, response.text).toBe(200);
      expect(await members()).toEqual([users[2].id]);
    });

    it('remove members without a value removes all of them', async () => {
      const { scim, group, members } = await groupWith(2);
      expect((await scim.patch(`/Groups/${group.id}`, [{ op: 'remove', path: 'members' }])).status).toBe(200);
      expect(await members()).toEqual([]);
    });

    it('replace without a path renames (Okta sends the id along)', async () => {
      const { scim, group } = await groupWith(0);
      const response = await scim.patch(`/Groups/${group.id}`, [{ op: 'replace', value: { id: group.id, displayName: 'Renamed group' } }]);
      expect(response.status, response.text).toBe(200);
      expect(response.body.displayName).toBe('Renamed group');
    });

    it('a member that is no user of the account is 400 invalidValue and nothing changes', async () => {
      const { scim, users, group, members } = await groupWith(3);
      const other = await (await client()).createUser();
      const response = await scim.patch(`/Groups/${group.id}`, [
        { op: 'add', path: 'members', value: [{ value: users[2].id }] },
        { op: 'add', path: 'members', value: [{ value: other.id }] },
      ]);
      expectScimError(response, 400, 'invalidValue');
      expect(await members()).toEqual([users[0].id, users[1].id].sort());
    });

    it('replace of members matching a filter that matches none is 400 noTarget', async () => {
      const { scim, group } = await groupWith(2);
      const response = await scim.patch(`/Groups/${group.id}`, [
        { op: 'replace', path: 'members[value eq "00000000-0000-4000-8000-000000000000"]', value: { value: 'x' } },
      ]);
      expectScimError(response, 400, 'noTarget');
    });

    it("membership changes bump the group's version", async () => {
      const { scim, users, group } = await groupWith(3);
      const response = await scim.patch(`/Groups/${group.id}`, [{ op: 'add', path: 'members', value: [{ value: users[2].id }] }]);
      expect(response.body.meta.version).not.toBe(group.meta.version);
    });
  });
});
