import { describe, expect, it } from 'vitest';
import { describeOnStores } from '../../test-support/server.js';
import { URN } from './errors.js';
import { expectScimError, scimClient, uniqueEmail } from './scim-test-client.js';

const ENTERPRISE = URN.enterpriseUser;
const filterOf = (filter: string) => `/Users?filter=${encodeURIComponent(filter)}`;

/** Every attribute of the core User and the enterprise extension, as a provider may send them. */
const fullUser = (userName: string) => ({
  schemas: [URN.user, ENTERPRISE],
  userName,
  externalId: 'ext-full',
  name: {
    formatted: 'Ms. Barbara J Jensen, III',
    familyName: 'Jensen',
    givenName: 'Barbara',
    middleName: 'Jane',
    honorificPrefix: 'Ms.',
    honorificSuffix: 'III',
  },
  displayName: 'Babs Jensen',
  nickName: 'Babs',
  profileUrl: 'https://login.example.com/bjensen',
  title: 'Tour Guide',
  userType: 'Employee',
  preferredLanguage: 'en-US',
  locale: 'en-US',
  timezone: 'America/Los_Angeles',
  active: true,
  emails: [
    { value: 'bjensen@example.com', type: 'work', primary: true },
    { value: 'babs@jensen.org', type: 'home' },
  ],
  phoneNumbers: [
    { value: '555-555-5555', type: 'work' },
    { value: '555-555-4444', type: 'mobile' },
  ],
  ims: [{ value: 'someaimhandle', type: 'aim' }],
  photos: [{ value: 'https://photos.example.com/profilephoto/72930000000Ccne/F', type: 'photo' }],
  addresses: [
    {
      type: 'work',
      streetAddress: '100 Universal City Plaza',
      locality: 'Hollywood',
      region: 'CA',
      postalCode: '91608',
      country: 'USA',
      formatted: '100 Universal City Plaza\nHollywood, CA 91608 USA',
      primary: true,
    },
  ],
  entitlements: [{ value: 'reports.read' }],
  roles: [{ value: 'analyst', type: 'job' }],
  x509Certificates: [{ value: 'MIIDQzCCAqygAwIBAgICEAAwDQYJKoZIhvcNAQEFBQAwTjELMAkGA1UEBhMCVVMx' }],
  [ENTERPRISE]: {
    employeeNumber: '701984',
    costCenter: '4130',
    organization: 'Universal Studios',
    division: 'Theme Park',
    department: 'Tour Operations',
    manager: {
      value: '26118915-6090-4610-87e4-49d8ca9f808d',
      $ref: 'https://example.com/v2/Users/26118915-6090-4610-87e4-49d8ca9f808d',
      displayName: 'John Smith',
    },
  },
});

describeOnStores('SCIM User schema as providers send it (issue 10)', (server) => {
  const client = async () => scimClient(await server().newAccount());

  describe('1: userName is any non-empty string, unique ignoring case', () => {
    it.each([
      ['an Entra mailNickname', 'jdoe'],
      ['an employee id', '100234'],
      ['a guest UPN', 'jane_contoso.com#EXT#@fabrikam.onmicrosoft.com'],
      ['a name with spaces and accents', 'Zoë van Dijk'],
      ['256 characters', 'ü'.repeat(256)],
    ])('%s is accepted, stored as sent and found with userName eq in any case', async (_label, userName) => {
      const scim = await client();
      const created = await scim.call('POST', '/Users', { schemas: [URN.user], userName });
      expect(created.status, created.text).toBe(201);
      expect(created.body.userName).toBe(userName);
      const found = await scim.call('GET', filterOf(`userName eq "${userName.toUpperCase()}"`));
      expect(found.body.Resources.map((r: { id: string }) => r.id)).toEqual([created.body.id]);
      expectScimError(await scim.call('POST', '/Users', { schemas: [URN.user], userName: userName.toLowerCase() }), 409, 'uniqueness');
    });

    it('a user without any e-mail exists, with no sign-in address; the platform API shows it as null', async () => {
      const scim = await client();
      const created = await scim.createUser({ userName: 'no-mail-user' });
      const internal = (await server().services.users.findByUuid(scim.account.id, created.id))!;
      expect(internal).toMatchObject({ email: null, userName: 'no-mail-user' });
      const platform = await scim.account.request({ method: 'GET', url: `/api/v1/users/${internal.id}`, as: scim.account.admin });
      expect(platform.status, platform.text).toBe(200);
      expect(platform.body.email).toBeNull();
    });

    it('the sign-in address is the primary address sent, else the first, else userName when it is one', async () => {
      const scim = await client();
      const cases: Array<[Record<string, unknown>, string | null]> = [
        [{ userName: 'emp-1', emails: [{ value: 'a@example.org' }, { value: 'b@example.org', primary: true }] }, 'b@example.org'],
        [{ userName: 'emp-2', emails: [{ value: 'c@example.org', type: 'home' }] }, 'c@example.org'],
        [{ userName: 'addr@example.org' }, 'addr@example.org'],
      ];
      for (const [body, email] of cases) {
        const created = await scim.createUser(body);
        expect((await server().services.users.findByUuid(scim.account.id, created.id))!.email).toBe(email);
      }
    });

    it('a platform user presents its own address; an echo changes nothing, and once SCIM removes the addresses none remain', async () => {
      const scim = await client();
      const internal = await server().services.users.get(scim.account.id, scim.account.member.id);
      const path = `/Users/${internal.uuid}`;
      const read = (await scim.call('GET', path)).body;
      expect(read).toMatchObject({
        userName: scim.account.member.email,
        emails: [{ value: scim.account.member.email, type: 'work', primary: true }],
      });
      const { meta: _meta, ...echo } = read;
      expect((await scim.call('PUT', path, echo)).body.meta.version).toBe(read.meta.version);
      const removed = await scim.patch(path, [{ op: 'remove', path: 'emails' }]);
      expect(removed.status, removed.text).toBe(200);
      expect(removed.body.emails).toBeUndefined();
      expect((await scim.call('GET', path)).body).toMatchObject({ userName: scim.account.member.email });
      expect((await scim.call('GET', path)).body.emails).toBeUndefined();
      // Still the sign-in address: userName is one.
      expect((await server().services.users.get(scim.account.id, scim.account.member.id)).email).toBe(scim.account.member.email);
    });

    it("a userName that is another user's e-mail address is 409 uniqueness", async () => {
      const scim = await client();
      expectScimError(
        await scim.call('POST', '/Users', { schemas: [URN.user], userName: scim.account.member.email.toUpperCase() }),
        409,
        'uniqueness',
      );
    });
  });

  describe('2: the core User and the enterprise extension, stored in full', () => {
    it('every attribute sent comes back as sent, and the extension is named in schemas', async () => {
      const scim = await client();
      const body = fullUser(uniqueEmail('full'));
      const created = await scim.call('POST', '/Users', body);
      expect(created.status, created.text).toBe(201);
      const got = (await scim.call('GET', `/Users/${created.body.id}`)).body;
      const { meta: _meta, id: _id, ...rest } = got;
      expect(rest).toEqual(body);
    });

    it('/Schemas and /ResourceTypes advertise the extension', async () => {
      const scim = await client();
      const type = (await scim.call('GET', '/ResourceTypes/User')).body;
      expect(type.schemaExtensions).toEqual([{ schema: ENTERPRISE, required: false }]);
      const schema = await scim.call('GET', `/Schemas/${ENTERPRISE}`);
      expect(schema.status).toBe(200);
      expect(schema.body.attributes.map((a: { name: string }) => a.name)).toEqual([
        'employeeNumber',
        'costCenter',
        'organization',
        'division',
        'department',
        'manager',
      ]);
      const core = (await scim.call('GET', `/Schemas/${URN.user}`)).body.attributes.map((a: { name: string }) => a.name);
      for (const name of [
        'nickName',
        'title',
        'userType',
        'preferredLanguage',
        'locale',
        'timezone',
        'phoneNumbers',
        'addresses',
        'photos',
        'roles',
        'x509Certificates',
      ]) {
        expect(core).toContain(name);
      }
    });

    it.each([
      [`${ENTERPRISE}:department eq "tour operations"`, true],
      [`${ENTERPRISE}:manager.value eq "26118915-6090-4610-87e4-49d8ca9f808d"`, true],
      [`${ENTERPRISE}:employeeNumber eq "1"`, false],
      ['title eq "Tour Guide"', true],
      ['name.formatted sw "Ms."', true],
      ['phoneNumbers[type eq "mobile" and value eq "555-555-4444"]', true],
      ['addresses[locality eq "Hollywood"]', true],
      ['roles.value eq "ANALYST"', true],
    ])('filter %s', async (filter, matches) => {
      const scim = await client();
      const created = (await scim.call('POST', '/Users', fullUser(uniqueEmail('flt')))).body;
      await scim.createUser();
      const response = await scim.call('GET', filterOf(filter));
      expect(response.status, response.text).toBe(200);
      expect(response.body.Resources.map((r: { id: string }) => r.id)).toEqual(matches ? [created.id] : []);
    });

    it('an unqualified enterprise attribute is not a core one: 400 invalidFilter', async () => {
      const scim = await client();
      expectScimError(await scim.call('GET', filterOf('department eq "x"')), 400, 'invalidFilter');
    });

    it('Entra ID PATCH forms: URN paths, manager as a bare id, Remove of manager', async () => {
      const scim = await client();
      const user = await scim.createUser();
      const patched = await scim.patch(`/Users/${user.id}`, [
        { op: 'Replace', path: `${ENTERPRISE}:department`, value: 'Finance' },
        { op: 'Add', path: `${ENTERPRISE}:manager`, value: 'boss-id' },
        { op: 'Replace', path: 'name.givenName', value: 'Janet' },
        { op: 'Add', path: 'phoneNumbers[type eq "work"].value', value: '+1 555 0100' },
        { op: 'Replace', path: 'preferredLanguage', value: 'fr-FR' },
      ]);
      expect(patched.status, patched.text).toBe(200);
      expect(patched.body).toMatchObject({
        schemas: [URN.user, ENTERPRISE],
        name: { givenName: 'Janet', familyName: 'Doe' },
        phoneNumbers: [{ type: 'work', value: '+1 555 0100' }],
        preferredLanguage: 'fr-FR',
        [ENTERPRISE]: { department: 'Finance', manager: { value: 'boss-id' } },
      });
      const removed = await scim.patch(`/Users/${user.id}`, [
        { op: 'Remove', path: `${ENTERPRISE}:manager` },
        { op: 'Remove', path: `${ENTERPRISE}:department` },
      ]);
      expect(removed.body[ENTERPRISE]).toBeUndefined();
      expect(removed.body.schemas).toEqual([URN.user]);
    });

    it('Okta PATCH form: replace without a path, the extension as an object; sub-attributes not sent stay', async () => {
      const scim = await client();
      const user = await scim.createUser({ [ENTERPRISE]: { costCenter: 'CC1', division: 'D1' } });
      const patched = await scim.patch(`/Users/${user.id}`, [
        { op: 'replace', value: { [ENTERPRISE]: { costCenter: 'CC2', manager: { value: 'm-1', displayName: 'Ma' } }, title: 'Lead' } },
      ]);
      expect(patched.status, patched.text).toBe(200);
      expect(patched.body[ENTERPRISE]).toEqual({ costCenter: 'CC2', division: 'D1', manager: { value: 'm-1', displayName: 'Ma' } });
      expect(patched.body.title).toBe('Lead');
    });

    it.each<[string, unknown[]]>([
      ['an attribute User does not have', [{ op: 'add', path: 'favoriteColor', value: 'blue' }]],
      ['a sub-attribute name does not have', [{ op: 'replace', path: 'name.nickname', value: 'x' }]],
      ['a schema the server does not implement', [{ op: 'add', path: 'urn:example:params:scim:schemas:custom:User:badge', value: '7' }]],
      ['an unknown attribute of the extension', [{ op: 'add', path: `${ENTERPRISE}:shoeSize`, value: '44' }]],
      ['an unknown key in a path-less value', [{ op: 'replace', value: { title: 'ok', favoriteColor: 'blue' } }]],
      ['an unknown sub-attribute of an item', [{ op: 'add', path: 'phoneNumbers', value: [{ value: '1', color: 'red' }] }]],
    ])('PATCH with %s is 400 invalidPath and changes nothing', async (_label, operations) => {
      const scim = await client();
      const user = await scim.createUser();
      const response = await scim.patch(`/Users/${user.id}`, operations);
      expectScimError(response, 400, 'invalidPath');
      expect((await scim.call('GET', `/Users/${user.id}`)).body).toEqual(user);
    });

    it('POST with an attribute User does not have is 400 naming it, and creates nothing', async () => {
      const scim = await client();
      const userName = uniqueEmail('unknown');
      const response = await scim.call('POST', '/Users', { schemas: [URN.user], userName, favoriteColor: 'blue' });
      expectScimError(response, 400, 'invalidSyntax');
      expect(response.body.detail).toContain('favoriteColor');
      expect((await scim.call('GET', filterOf(`userName eq "${userName}"`))).body.totalResults).toBe(0);
    });

    it("groups (read-only, returned on request) lists the user's groups when attributes names it; extension paths project", async () => {
      const scim = await client();
      const user = await scim.createUser({ [ENTERPRISE]: { department: 'Ops', costCenter: 'C1' } });
      const group = await scim.createGroup({ members: [{ value: user.id }] });
      expect((await scim.call('GET', `/Users/${user.id}`)).body.groups).toBeUndefined();
      const expected = [
        { value: group.id, $ref: `http://${scim.account.host}/api/scim/v2/Groups/${group.id}`, display: group.displayName, type: 'direct' },
      ];
      const one = await scim.call('GET', `/Users/${user.id}?attributes=groups,userName`);
      expect(one.body).toEqual({ schemas: [URN.user, ENTERPRISE], id: user.id, userName: user.userName, groups: expected });
      const listed = await scim.call('GET', `/Users?attributes=groups&filter=${encodeURIComponent(`id eq "${user.id}"`)}`);
      expect(listed.body.Resources[0].groups).toEqual(expected);
      const projected = await scim.call('GET', `/Users/${user.id}?attributes=${encodeURIComponent(`${ENTERPRISE}:department`)}`);
      expect(projected.body[ENTERPRISE]).toEqual({ department: 'Ops' });
    });

    it('read-only groups in a PUT are ignored (RFC 7644 §3.5.1) and not echoed; a password is refused', async () => {
      const scim = await client();
      const user = await scim.createUser();
      const put = await scim.call('PUT', `/Users/${user.id}`, { schemas: [URN.user], userName: user.userName, groups: [{ value: 'g1' }] });
      expect(put.status, put.text).toBe(200);
      expect(put.body.groups).toBeUndefined();
      const password = await scim.call('POST', '/Users', { schemas: [URN.user], userName: uniqueEmail(), password: 'secret-secret' });
      expectScimError(password, 400, 'invalidValue');
      expect(password.body.detail).toContain('password');
    });
  });

  describe('4: active', () => {
    it('remove active is refused and leaves a deactivated user deactivated', async () => {
      const scim = await client();
      const user = await scim.createUser({ active: false });
      expectScimError(await scim.patch(`/Users/${user.id}`, [{ op: 'remove', path: 'active' }]), 400, 'mutability');
      expect((await scim.call('GET', `/Users/${user.id}`)).body.active).toBe(false);
    });

    it.each([
      ['TRUE', true],
      ['false', false],
      ['False', false],
      [true, true],
    ])('active %j is taken as %j on create and PATCH', async (sent, stored) => {
      const scim = await client();
      const created = await scim.createUser({ active: sent });
      expect(created.active).toBe(stored);
      const patched = await scim.patch(`/Users/${created.id}`, [{ op: 'Replace', path: 'active', value: sent }]);
      expect(patched.body.active).toBe(stored);
    });

    it.each([['yes'], [''], [1], [null]])('active %j on create is 400', async (sent) => {
      const scim = await client();
      const response = await scim.call('POST', '/Users', { schemas: [URN.user], userName: uniqueEmail(), active: sent });
      expect(response.status, response.text).toBe(400);
    });
  });
});
