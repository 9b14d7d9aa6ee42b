import { describe, expect, it } from 'vitest';
import { describeOnStores } from '../../test-support/server.js';
import { URN } from './errors.js';
import { expectScimError, scimClient, uniqueEmail } from './scim-test-client.js';

const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';

/** The create body Entra ID sends with its default attribute mapping. */
const entraCreate = (userName: string, mail: string) => ({
  schemas: [URN.user, ENTERPRISE],
  externalId: 'jdoe',
  userName,
  active: true,
  displayName: 'Jane Doe',
  emails: [{ primary: true, type: 'work', value: mail }],
  meta: { resourceType: 'User' },
  name: { formatted: 'Jane Doe', familyName: 'Doe', givenName: 'Jane' },
  [ENTERPRISE]: { department: 'R&D' },
});

const primaries = (user: { emails: Array<{ primary?: boolean }> }) => user.emails.filter((e) => e.primary === true).length;

describeOnStores('SCIM User emails (2.2, RFC 7643 §4.1.2)', (server) => {
  const client = async () => scimClient(await server().newAccount());

  describe('stored as sent', () => {
    it('2.2: an Entra ID create keeps its work address apart from userName', async () => {
      const scim = await client();
      const userName = uniqueEmail('upn');
      const response = await scim.call('POST', '/Users', entraCreate(userName, 'jane.doe@mail.example.com'));
      expect(response.status, response.text).toBe(201);
      const got = (await scim.call('GET', `/Users/${response.body.id}`)).body;
      expect(got.userName).toBe(userName);
      expect(got.emails).toEqual([{ value: 'jane.doe@mail.example.com', type: 'work', primary: true }]);
    });

    it('issue 10: without emails none are presented; add emails stores exactly it, remove emails leaves none', async () => {
      const scim = await client();
      const user = await scim.createUser();
      expect(user.emails).toBeUndefined();
      const renamed = uniqueEmail('renamed');
      const response = await scim.patch(`/Users/${user.id}`, [{ op: 'replace', path: 'userName', value: renamed }]);
      expect(response.status, response.text).toBe(200);
      expect(response.body.emails).toBeUndefined();
      const added = await scim.patch(`/Users/${user.id}`, [
        { op: 'add', path: 'emails', value: [{ value: 'only@example.org', type: 'work' }] },
      ]);
      expect(added.body.emails).toEqual([{ value: 'only@example.org', type: 'work' }]);
      const removed = await scim.patch(`/Users/${user.id}`, [{ op: 'remove', path: 'emails' }]);
      expect(removed.status, removed.text).toBe(200);
      expect(removed.body.emails).toBeUndefined();
      expect((await scim.call('GET', `/Users/${user.id}`)).body.emails).toBeUndefined();
    });

    it('Okta PUT replaces the addresses; a PUT without emails leaves none', async () => {
      const scim = await client();
      const user = await scim.createUser();
      const emails = [
        { value: 'home@example.net', type: 'home', primary: false },
        { value: 'work@example.com', type: 'work', primary: true, display: 'Work' },
      ];
      const put = await scim.call('PUT', `/Users/${user.id}`, { schemas: [URN.user], userName: user.userName, emails, active: true });
      expect(put.status, put.text).toBe(200);
      expect((await scim.call('GET', `/Users/${user.id}`)).body.emails).toEqual(emails);
      const bare = await scim.call('PUT', `/Users/${user.id}`, { schemas: [URN.user], userName: user.userName });
      expect(bare.status, bare.text).toBe(200);
      expect(bare.body.emails).toBeUndefined();
    });

    it('echoing the resource unchanged (GET, then PUT) changes nothing, not even the version', async () => {
      const scim = await client();
      const user = await scim.createUser({ emails: [{ value: 'a@example.org', type: 'other' }] });
      const { meta: _meta, ...echo } = user;
      const put = await scim.call('PUT', `/Users/${user.id}`, echo);
      expect(put.status, put.text).toBe(200);
      expect(put.body.meta.version).toBe(user.meta.version);
    });

    it.each<[string, unknown]>([
      [
        'two primary addresses in one request',
        [
          { value: 'a@x.com', primary: true },
          { value: 'b@x.com', primary: true },
        ],
      ],
      ['an address that is not one', [{ value: 'not an address', type: 'work' }]],
      ['an item without a value', [{ type: 'work' }]],
    ])('%s is 400 invalidValue and creates nothing', async (_label, emails) => {
      const scim = await client();
      const userName = uniqueEmail();
      expectScimError(await scim.call('POST', '/Users', { schemas: [URN.user], userName, emails }), 400, 'invalidValue');
      const found = await scim.call('GET', `/Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}`);
      expect(found.body.totalResults).toBe(0);
    });
  });

  describe('PATCH as Entra ID and Okta send it', () => {
    it.each([
      ['Add', 'emails[type eq "work"].value'],
      ['Replace', 'emails[type eq "work"].value'],
      ['replace', 'emails[primary eq true].value'],
    ])('%s %s changes the stored address (and only it)', async (op, path) => {
      const scim = await client();
      const created = await scim.call('POST', '/Users', entraCreate(uniqueEmail('upn'), 'old@mail.example.com'));
      const user = created.body;
      const response = await scim.patch(`/Users/${user.id}`, [{ op, path, value: 'new@mail.example.com' }]);
      expect(response.status, response.text).toBe(200);
      expect(response.body.emails).toEqual([{ value: 'new@mail.example.com', type: 'work', primary: true }]);
      expect(response.body.userName).toBe(user.userName);
      expect(response.body.meta.version).not.toBe(user.meta.version);
      expect((await scim.call('GET', `/Users/${user.id}`)).body.emails).toEqual(response.body.emails);
    });

    it('Replace emails[type eq "work"].value on a user created without emails stores it; userName stays', async () => {
      const scim = await client();
      const user = await scim.createUser();
      const response = await scim.patch(`/Users/${user.id}`, [
        { op: 'Replace', path: 'emails[type eq "work"].value', value: 'Mail@Example.com' },
      ]);
      expect(response.status, response.text).toBe(200);
      expect(response.body.userName).toBe(user.userName);
      expect(response.body.emails).toEqual([{ value: 'Mail@Example.com', type: 'work' }]);
    });

    it('Add emails[type eq "home"].value when there is no home address creates it, not primary', async () => {
      const scim = await client();
      const user = await scim.createUser({ emails: [{ value: 'work@example.org', type: 'work', primary: true }] });
      const response = await scim.patch(`/Users/${user.id}`, [
        { op: 'Add', path: 'emails[type eq "home"].value', value: 'me@home.example' },
      ]);
      expect(response.status, response.text).toBe(200);
      expect(response.body.emails).toEqual([
        { value: 'work@example.org', type: 'work', primary: true },
        { value: 'me@home.example', type: 'home' },
      ]);
    });

    it('RFC 7643 §2.4: adding a primary address clears the other primary', async () => {
      const scim = await client();
      const user = await scim.createUser({ emails: [{ value: 'work@example.org', type: 'work', primary: true }] });
      const response = await scim.patch(`/Users/${user.id}`, [
        { op: 'add', path: 'emails', value: [{ value: 'me@home.example', type: 'home', primary: true }] },
      ]);
      expect(response.status, response.text).toBe(200);
      expect(response.body.emails).toEqual([
        { value: 'work@example.org', type: 'work', primary: false },
        { value: 'me@home.example', type: 'home', primary: true },
      ]);
    });

    it('RFC 7643 §2.4: replace emails[type eq "home"].primary true moves primary from work to home', async () => {
      const scim = await client();
      const user = await scim.createUser({
        emails: [
          { value: 'w@example.com', type: 'work', primary: true },
          { value: 'h@example.com', type: 'home' },
        ],
      });
      const response = await scim.patch(`/Users/${user.id}`, [{ op: 'replace', path: 'emails[type eq "home"].primary', value: 'True' }]);
      expect(response.status, response.text).toBe(200);
      expect(response.body.emails).toEqual([
        { value: 'w@example.com', type: 'work', primary: false },
        { value: 'h@example.com', type: 'home', primary: true },
      ]);
      expect(primaries(response.body)).toBe(1);
    });

    it('remove emails[type eq "home"] and remove of an item\'s value drop those items', async () => {
      const scim = await client();
      const user = await scim.createUser({
        emails: [
          { value: 'w@example.com', type: 'work', primary: true },
          { value: 'h@example.com', type: 'home' },
          { value: 'o@example.com', type: 'other' },
        ],
      });
      const response = await scim.patch(`/Users/${user.id}`, [
        { op: 'remove', path: 'emails[type eq "home"]' },
        { op: 'Remove', path: 'emails[value eq "O@EXAMPLE.COM"].value' },
      ]);
      expect(response.status, response.text).toBe(200);
      expect(response.body.emails).toEqual([{ value: 'w@example.com', type: 'work', primary: true }]);
    });

    it('replace with a value filter that describes no item to create is 400 noTarget, and nothing changes', async () => {
      const scim = await client();
      const user = await scim.createUser();
      const response = await scim.patch(`/Users/${user.id}`, [
        { op: 'replace', path: 'emails[value co "nowhere"].value', value: 'x@example.com' },
      ]);
      expectScimError(response, 400, 'noTarget');
      expect((await scim.call('GET', `/Users/${user.id}`)).body.meta.version).toBe(user.meta.version);
    });

    it('an address that is not one is 400 invalidValue', async () => {
      const scim = await client();
      const user = await scim.createUser();
      expectScimError(
        await scim.patch(`/Users/${user.id}`, [{ op: 'Replace', path: 'emails[type eq "work"].value', value: 'nope' }]),
        400,
        'invalidValue',
      );
    });
  });

  describe('filters and sorting, in SQL, case-insensitive (caseExact false)', () => {
    it.each<[string, string[]]>([
      ['emails.value co "@CORP.example"', ['a', 'b']],
      ['emails[type eq "work" and value co "@corp.example"]', ['a']],
      ['emails[type eq "HOME"]', ['b']],
      ['emails.value eq "A.WORK@corp.example"', ['a']],
      ['emails[primary eq true].value ew "@plain.example"', ['c']],
      ['emails co "b.home"', ['b']],
      ['emails[type eq "home"] or userName sw "c-"', ['b', 'c']],
      ['not (emails.type eq "home") and userName co "-user@"', ['a', 'c']],
    ])('%s', async (filter, expected) => {
      const scim = await client();
      const a = await scim.createUser({
        userName: 'a-user@x.example',
        emails: [{ value: 'a.work@corp.example', type: 'work', primary: true }],
      });
      const b = await scim.createUser({ userName: 'b-user@x.example', emails: [{ value: 'b.home@corp.example', type: 'home' }] });
      const c = await scim.createUser({ userName: 'c-user@plain.example', emails: [{ value: 'c-user@plain.example', primary: true }] });
      const byId: Record<string, string> = { [a.id]: 'a', [b.id]: 'b', [c.id]: 'c' };
      const response = await scim.call('GET', `/Users?filter=${encodeURIComponent(filter)}`);
      expect(response.status, response.text).toBe(200);
      expect(response.body.Resources.map((r: { id: string }) => byId[r.id]).sort()).toEqual(expected);
      expect(response.body.totalResults).toBe(expected.length);
    });

    it('sortBy emails sorts by the primary (else first) address, case-insensitively', async () => {
      const scim = await client();
      await scim.createUser({ userName: 'm@x.example', emails: [{ value: 'B@sort.example', type: 'work' }] });
      await scim.createUser({
        userName: 'a@x.example',
        emails: [
          { value: 'z@sort.example', type: 'home' },
          { value: 'c@sort.example', primary: true },
        ],
      });
      await scim.createUser({ userName: 'A@sort.example', emails: [{ value: 'A@sort.example' }] });
      const response = await scim.call(
        'GET',
        `/Users?sortBy=emails&sortOrder=descending&filter=${encodeURIComponent('emails.value co "SORT.example"')}`,
      );
      expect(response.status, response.text).toBe(200);
      const order = response.body.Resources.map((r: { userName: string }) => r.userName);
      expect(order).toEqual(['a@x.example', 'm@x.example', 'A@sort.example']);
    });
  });
});
