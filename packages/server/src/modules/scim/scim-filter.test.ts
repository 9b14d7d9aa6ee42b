import { beforeAll, describe, expect, it } from 'vitest';
import { describeOnStores } from '../../test-support/server.js';
import { expectScimError, scimClient, type ScimTestClient } from './scim-test-client.js';

/** Fixture users, by key; each test reads only, so one account serves the whole table. */
const fixtures = {
  alice: { userName: 'alice@example.com', name: { givenName: 'Alice', familyName: 'Smith' }, displayName: 'Alice', externalId: 'EXT-A' },
  bob: { userName: 'bob@example.com', name: { givenName: 'Bob', familyName: 'SMITH' }, externalId: 'EXT-B' },
  carol: { userName: 'Carol@Example.com', name: { givenName: 'Carol', familyName: 'Jones' }, displayName: 'Carol J' },
  dave: { userName: 'dave@other.org', name: { givenName: 'Dave' } },
  eve: { userName: 'eve@example.com', active: false },
} as const;
type Key = keyof typeof fixtures;
const all: Key[] = ['alice', 'bob', 'carol', 'dave', 'eve'];
const except = (...keys: Key[]) => all.filter((k) => !keys.includes(k));

describeOnStores('SCIM filters (RFC 7644 §3.4.2.2)', (server) => {
  let scim: ScimTestClient;
  const ids = {} as Record<Key, string>;
  beforeAll(async () => {
    scim = await scimClient(await server().newAccount());
    // Okta sends userName as the primary work address too; nothing derives one (issue 10).
    for (const key of all) {
      const emails = [{ value: fixtures[key].userName, type: 'work', primary: true }];
      ids[key] = (await scim.createUser({ name: undefined, emails, ...fixtures[key] })).id;
    }
  });

  async function matching(filter: string): Promise<Key[]> {
    const response = await scim.call('GET', `/Users?count=1000&filter=${encodeURIComponent(filter)}`);
    expect(response.status, response.text).toBe(200);
    const names = response.body.Resources.map((r: { userName: string }) => r.userName.toLowerCase());
    expect(response.body.totalResults).toBe(response.body.Resources.length);
    return all.filter((k) => names.includes(fixtures[k].userName.toLowerCase()));
  }

  describe('each operator', () => {
    it.each<[string, string, Key[]]>([
      ['eq, case-insensitive for userName (caseExact false)', 'userName eq "CAROL@example.COM"', ['carol']],
      ['ne', 'userName ne "alice@example.com"', except('alice')],
      ['co', 'userName co "OB@"', ['bob']],
      ['sw', 'userName sw "car"', ['carol']],
      ['ew', 'userName ew "@other.org"', ['dave']],
      ['pr', 'displayName pr', ['alice', 'carol']],
      ['gt', 'userName gt "bob@example.com"', ['carol', 'dave', 'eve']],
      ['ge', 'userName ge "bob@example.com"', ['bob', 'carol', 'dave', 'eve']],
      ['lt', 'userName lt "bob@example.com"', ['alice']],
      ['le', 'userName le "bob@example.com"', ['alice', 'bob']],
      ['eq on a boolean', 'active eq false', ['eve']],
      ['ne on a boolean', 'active ne false', except('eve')],
      ['gt on a dateTime', 'meta.created gt "2000-01-01T00:00:00Z"', all],
      ['lt on a dateTime', 'meta.lastModified lt "2000-01-01T00:00:00Z"', []],
      ['eq on caseExact externalId matches the exact case', 'externalId eq "EXT-A"', ['alice']],
      ['eq on caseExact externalId does not fold case', 'externalId eq "ext-a"', []],
    ])('%s', async (_label, filter, expected) => {
      expect(await matching(filter)).toEqual(expected);
    });

    it('eq on id', async () => {
      expect(await matching(`id eq "${ids.bob}"`)).toEqual(['bob']);
    });
  });

  describe('logical operators and grouping', () => {
    it.each<[string, string, Key[]]>([
      ['and', 'userName ew "example.com" and active eq true', ['alice', 'bob', 'carol']],
      ['or', 'userName sw "alice" or userName sw "dave"', ['alice', 'dave']],
      ['not', 'not (userName co "example.com")', ['dave']],
      ['parentheses change precedence', '(userName sw "a" or userName sw "b") and displayName pr', ['alice']],
      ['precedence without parentheses: and binds tighter', 'userName sw "a" or userName sw "b" and displayName pr', ['alice']],
      ['ne includes users without the attribute', 'displayName ne "Alice"', except('alice')],
      ['not includes users without the attribute', 'not (displayName eq "Alice")', except('alice')],
      ['operators in any case', 'userName SW "alice" OR userName Eq "dave@other.org"', ['alice', 'dave']],
    ])('%s', async (_label, filter, expected) => {
      expect(await matching(filter)).toEqual(expected);
    });
  });

  describe('attribute paths', () => {
    it.each<[string, string, Key[]]>([
      ['sub-attribute, case-insensitive value', 'name.familyName eq "smith"', ['alice', 'bob']],
      ['attribute names are case-insensitive', 'NAME.FAMILYNAME eq "jones" or USERNAME eq "dave@other.org"', ['carol', 'dave']],
      ['schema URN prefix', 'urn:ietf:params:scim:schemas:core:2.0:User:userName eq "bob@example.com"', ['bob']],
      ['complex attribute pr', 'name pr', ['alice', 'bob', 'carol', 'dave']],
      ['value path with and', 'emails[type eq "work" and value co "@example.com"]', except('dave')],
      ['value path on another value', 'emails[value ew ".org"]', ['dave']],
      ['multi-valued attribute without sub-attribute compares its value', 'emails co "@OTHER.org"', ['dave']],
      ['multi-valued sub-attribute', 'emails.value sw "eve"', ['eve']],
      ['value path combined with a comparison', 'emails[primary eq true] and name.givenName eq "bob"', ['bob']],
    ])('%s', async (_label, filter, expected) => {
      expect(await matching(filter)).toEqual(expected);
    });
  });

  describe('a malformed or meaningless filter is 400 invalidFilter', () => {
    it.each([
      ['a comparison without a value', 'userName eq'],
      ['an unknown operator', 'userName xx "a"'],
      ['an unknown attribute', 'favouriteColour eq "red"'],
      ['an unknown sub-attribute', 'name.nickname eq "x"'],
      ['ordering on a boolean', 'active gt true'],
      ['a dateTime that is not a date', 'meta.created gt "yesterday"'],
      ['a number for a string attribute', 'userName eq 5'],
      ['a comparison on a complex attribute', 'name eq "x"'],
      ['an unclosed value path', 'emails[type eq "work"'],
      ['an unbalanced parenthesis', '(userName eq "a"'],
      ['a value path on a singular attribute', 'userName[value eq "x"]'],
    ])('%s', async (_label, filter) => {
      expectScimError(await scim.call('GET', `/Users?filter=${encodeURIComponent(filter)}`), 400, 'invalidFilter');
    });
  });

  describe('groups', () => {
    it('displayName (case-insensitive), externalId, members value path, and the Entra membership probe', async () => {
      const groupClient = await scimClient(await server().newAccount());
      const member = await groupClient.createUser();
      const eng = await groupClient.createGroup({ displayName: 'Engineering', externalId: 'G-1', members: [{ value: member.id }] });
      const ops = await groupClient.createGroup({ displayName: 'Operations' });
      const find = async (filter: string) => {
        const response = await groupClient.call('GET', `/Groups?excludedAttributes=members&filter=${encodeURIComponent(filter)}`);
        expect(response.status, response.text).toBe(200);
        return response.body.Resources.map((g: { id: string }) => g.id);
      };
      expect(await find('displayName eq "engineering"')).toEqual([eng.id]);
      expect(await find('externalId eq "G-1"')).toEqual([eng.id]);
      expect(await find(`members[value eq "${member.id}"]`)).toEqual([eng.id]);
      expect(await find('members pr')).toEqual([eng.id]);
      expect(await find('not (members pr)')).toEqual([ops.id]);
      expect(await find(`id eq "${eng.id}" and members[value eq "${member.id}"]`)).toEqual([eng.id]);
      expect(await find(`id eq "${ops.id}" and members[value eq "${member.id}"]`)).toEqual([]);
    });
  });
});
