import { beforeAll, describe, expect, it } from 'vitest';
import { describeOnStores } from '../../test-support/server.js';
import { URN } from './errors.js';
import { MAX_FILTER_LENGTH } from './filter.js';
import { expectScimError, scimClient, type ScimTestClient } from './scim-test-client.js';

/**
 * Filter cases at the edges of filter.ts (RFC 7644 §3.4.2.2): `null`, dateTimes, the LIKE
 * wildcards `%` and `_` inside values, type checks, and `pr` on empty strings and non-strings.
 * Users whose values differ only where a wrong translation would confuse them.
 */
const fixtures = {
  pct: { userName: 'pct@example.com', displayName: 'Save 50% now', name: { givenName: 'a_b', familyName: 'Lee' }, externalId: 'E-1' },
  fifty: { userName: 'fifty@example.com', displayName: 'Save 500 now', name: { givenName: 'axb' }, externalId: 'E-2' },
  blank: { userName: 'blank@example.com', displayName: '', name: { givenName: 'a%b' } },
  none: { userName: 'none@example.com', active: false },
} as const;
type Key = keyof typeof fixtures;
const all: Key[] = ['pct', 'fifty', 'blank', 'none'];
const except = (...keys: Key[]) => all.filter((k) => !keys.includes(k));

describeOnStores('SCIM filter edge cases', (server) => {
  let scim: ScimTestClient;
  const created = {} as Record<Key, { id: string; meta: { created: string } }>;
  beforeAll(async () => {
    scim = await scimClient(await server().newAccount());
    for (const key of all) created[key] = await scim.createUser({ name: undefined, ...fixtures[key] });
  });

  /** The fixture users a filter selects; the account's own admin and member never match these filters' positives. */
  async function matching(filter: string): Promise<Key[]> {
    const response = await scim.call('GET', `/Users?count=1000&filter=${encodeURIComponent(filter)}`);
    expect(response.status, response.text).toBe(200);
    const names = response.body.Resources.map((r: { userName: string }) => r.userName);
    return all.filter((k) => names.includes(fixtures[k].userName));
  }

  describe('% and _ in a value are literal characters, not LIKE wildcards', () => {
    it.each<[string, string, Key[]]>([
      ['co with %', 'displayName co "50%"', ['pct']],
      ['sw with %', 'displayName sw "save 50%"', ['pct']],
      ['ew with %', 'displayName ew "% NOW"', ['pct']],
      ['co with _', 'name.givenName co "_"', ['pct']],
      ['sw with _', 'name.givenName sw "A_"', ['pct']],
      ['ew with _', 'name.givenName ew "_b"', ['pct']],
      ['co with % alone', 'name.givenName co "%"', ['blank']],
      ['sw with %', 'name.givenName sw "a%"', ['blank']],
      ['ew with %', 'name.givenName ew "%b"', ['blank']],
      ['eq is not a pattern at all', 'name.givenName eq "a_b"', ['pct']],
      ['a value with neither still matches', 'name.givenName sw "ax"', ['fifty']],
    ])('%s', async (_label, filter, expected) => {
      expect(await matching(filter)).toEqual(expected);
    });
  });

  describe('eq and ne against null', () => {
    it.each<[string, string, Key[]]>([
      ['a string attribute that is absent', 'externalId eq null', ['blank', 'none']],
      ['a string attribute that is present', 'externalId ne null', ['pct', 'fifty']],
      ['a sub-attribute', 'name.familyName eq null', ['fifty', 'blank', 'none']],
      ['a boolean is never null', 'active eq null', []],
      ['a boolean ne null', 'active ne null', all],
      ['a dateTime is never null', 'meta.created eq null', []],
      ['a dateTime ne null', 'meta.lastModified ne null', all],
      ['not (… eq null)', 'not (externalId eq null)', ['pct', 'fifty']],
    ])('%s', async (_label, filter, expected) => {
      expect(await matching(filter)).toEqual(expected);
    });

    it.each([
      ['co null', 'displayName co null'],
      ['sw null', 'displayName sw null'],
      ['gt null', 'meta.created gt null'],
      ['le null', 'externalId le null'],
    ])('%s is 400 invalidFilter', async (_label, filter) => {
      const response = await scim.call('GET', `/Users?filter=${encodeURIComponent(filter)}`);
      expectScimError(response, 400, 'invalidFilter');
      expect(response.body.detail).toMatch(/null is not a valid comparison/);
    });
  });

  describe('dateTime attributes compare as instants', () => {
    it('eq and ne against a stored instant, in any time zone', async () => {
      const found = await scim.call('GET', `/Users/${created.fifty.id}`);
      const instant = found.body.meta.created as string;
      // The same instant written two hours ahead of UTC.
      const shifted = new Date(Date.parse(instant) + 2 * 3600_000).toISOString().replace('Z', '+02:00');
      const exact = await matching(`meta.created eq "${instant}"`);
      // The store keeps microseconds, the document shows milliseconds: eq matches when both agree.
      const kept = exact.length === 1;
      expect(exact).toEqual(kept ? ['fifty'] : []);
      expect(await matching(`meta.created eq "${shifted}"`)).toEqual(exact);
      expect(await matching(`meta.created ne "${instant}"`)).toEqual(kept ? except('fifty') : all);
      expect(await matching(`meta.created ge "${instant}"`)).toEqual(['fifty', 'blank', 'none']);
      expect(await matching(`meta.created lt "${instant}"`)).toEqual(kept ? ['pct'] : ['pct']);
    });

    it.each<[string, string, Key[]]>([
      ['gt a long-past instant', 'meta.created gt "2000-01-01T00:00:00Z"', all],
      ['ge a long-past instant', 'meta.created ge "2000-01-01T00:00:00+05:00"', all],
      ['lt a long-past instant', 'meta.created lt "2000-01-01T00:00:00Z"', []],
      ['le a long-past instant', 'meta.lastModified le "2000-01-01T00:00:00Z"', []],
      ['lt a far-future instant', 'meta.created lt "2999-01-01T00:00:00Z"', all],
      ['gt a far-future instant', 'meta.lastModified gt "2999-01-01T00:00:00Z"', []],
      ['eq an instant nobody has', 'meta.created eq "2001-02-03T04:05:06Z"', []],
      ['ne an instant nobody has', 'meta.created ne "2001-02-03T04:05:06Z"', all],
      ['a date without a time', 'meta.created gt "2000-01-01"', all],
    ])('%s', async (_label, filter, expected) => {
      expect(await matching(filter)).toEqual(expected);
    });

    it.each([
      ['a number', 'meta.created gt 5', /is a dateTime/],
      ['a boolean', 'meta.created eq true', /is a dateTime/],
      ['text that is not a date', 'meta.lastModified lt "soon"', /is a dateTime/],
      ['co on a dateTime', 'meta.created co "2026"', /cannot be used with the dateTime/],
      ['sw on a dateTime', 'meta.created sw "2026-01-01T00:00:00Z"', /cannot be used with the dateTime/],
      ['ew on a dateTime', 'meta.lastModified ew "2026-01-01T00:00:00Z"', /cannot be used with the dateTime/],
    ])('%s is 400 invalidFilter', async (_label, filter, detail) => {
      const response = await scim.call('GET', `/Users?filter=${encodeURIComponent(filter)}`);
      expectScimError(response, 400, 'invalidFilter');
      expect(response.body.detail).toMatch(detail);
    });
  });

  describe('booleans take only true and false, with eq and ne', () => {
    it.each<[string, string, Key[]]>([
      ['eq true', 'active eq true', ['pct', 'fifty', 'blank']],
      ['ne true', 'active ne true', ['none']],
      ['eq false', 'active eq false', ['none']],
      ['a boolean sub-attribute', 'emails[primary eq true and value sw "none@"]', ['none']],
    ])('%s', async (_label, filter, expected) => {
      expect(await matching(filter)).toEqual(expected);
    });

    it.each([
      ['the string "true"', 'active eq "true"', /is a boolean/],
      ['the string "False" with ne', 'active ne "False"', /is a boolean/],
      ['a number', 'active eq 1', /is a boolean/],
      ['co', 'active co true', /cannot be used with the boolean/],
      ['sw', 'active sw false', /cannot be used with the boolean/],
      ['ge', 'active ge false', /cannot be used with the boolean/],
    ])('%s is 400 invalidFilter', async (_label, filter, detail) => {
      const response = await scim.call('GET', `/Users?filter=${encodeURIComponent(filter)}`);
      expectScimError(response, 400, 'invalidFilter');
      expect(response.body.detail).toMatch(detail);
    });
  });

  describe('pr (present)', () => {
    it.each<[string, string, Key[]]>([
      ['an empty string is not present', 'displayName pr', ['pct', 'fifty']],
      ['not pr includes the empty string and the absent', 'not (displayName pr)', ['blank', 'none']],
      ['a string sub-attribute', 'name.familyName pr', ['pct']],
      ['a caseExact string', 'externalId pr', ['pct', 'fifty']],
      ['a boolean', 'active pr', all],
      ['a dateTime', 'meta.created pr', all],
      ['a dateTime sub-attribute of a complex attribute', 'meta.lastModified pr', all],
      ['a complex attribute: any sub-attribute present', 'name pr', ['pct', 'fifty', 'blank']],
      ['a multi-valued attribute', 'emails pr', all],
      ['inside a value filter', 'emails[value pr]', all],
    ])('%s', async (_label, filter, expected) => {
      expect(await matching(filter)).toEqual(expected);
    });
  });

  describe('strings', () => {
    it.each<[string, string, Key[]]>([
      ['caseExact co keeps case', 'externalId co "e-"', []],
      ['caseExact co with the right case', 'externalId co "E-"', ['pct', 'fifty']],
      ['caseExact ordering is by code point', 'externalId gt "E-1"', ['fifty']],
      ['case-insensitive ordering', 'name.givenName ge "A%B"', ['pct', 'fifty', 'blank']],
      ['ne keeps the absent', 'name.givenName ne "axb"', except('fifty')],
    ])('%s', async (_label, filter, expected) => {
      expect(await matching(filter)).toEqual(expected);
    });

    it.each([
      ['a boolean', 'displayName eq true', /is a string/],
      ['a number', 'name.givenName co 5', /is a string/],
    ])('compared with %s is 400 invalidFilter', async (_label, filter, detail) => {
      const response = await scim.call('GET', `/Users?filter=${encodeURIComponent(filter)}`);
      expectScimError(response, 400, 'invalidFilter');
      expect(response.body.detail).toMatch(detail);
    });
  });

  describe('paths that are not attributes', () => {
    it.each([
      ['an unknown sub-attribute in a value filter', 'emails[colour eq "x"]', /is not a sub-attribute of emails/],
      ['a value filter inside a value filter', 'emails[value eq "x" and emails[type eq "work"]]', /cannot be nested/],
      ['a value filter on an unknown attribute', 'favouriteColours[value eq "x"]', /is not a multi-valued attribute of User/],
      ['an unknown attribute', 'favouriteColour eq "red"', /is not an attribute of User/],
      ['a complex attribute compared as a whole', 'meta co "x"', /is complex/],
    ])('%s is 400 invalidFilter', async (_label, filter, detail) => {
      const response = await scim.call('GET', `/Users?filter=${encodeURIComponent(filter)}`);
      expectScimError(response, 400, 'invalidFilter');
      expect(response.body.detail).toMatch(detail);
    });
  });

  describe('filter length', () => {
    const ofLength = (length: number) => {
      const head = 'userName eq "';
      return `${head}${'x'.repeat(length - head.length - 1)}"`;
    };
    it('a filter of exactly the limit is read', async () => {
      expect(ofLength(MAX_FILTER_LENGTH)).toHaveLength(4096);
      expect(await matching(ofLength(MAX_FILTER_LENGTH))).toEqual([]);
    });
    it('one character more is 400 invalidFilter', async () => {
      const response = await scim.call('GET', `/Users?filter=${encodeURIComponent(ofLength(MAX_FILTER_LENGTH + 1))}`);
      expectScimError(response, 400, 'invalidFilter');
      expect(response.body.detail).toBe('The filter is longer than 4096 characters');
    });
    it('a malformed filter is quoted in the detail', async () => {
      const response = await scim.call('GET', `/Users?filter=${encodeURIComponent('userName eq')}`);
      expectScimError(response, 400, 'invalidFilter');
      expect(response.body.detail).toMatch(/^The filter "userName eq" is not valid: /);
    });
  });

  describe('POST /.search: an attribute one type lacks is absent there, not an error', () => {
    const search = async (filter: string) => {
      const response = await scim.call('POST', '/.search', { schemas: [URN.searchRequest], filter, count: 1000 });
      expect(response.status, response.text).toBe(200);
      return response.body.Resources as Array<{ id: string; meta: { resourceType: string } }>;
    };
    it.each<[string, string, Key[]]>([
      ['a value filter on users only', 'emails[value sw "pct@"]', ['pct']],
      ['a user-only comparison', 'name.givenName eq "axb"', ['fifty']],
    ])('%s', async (_label, filter, expected) => {
      const found = await search(filter);
      expect(found.every((r) => r.meta.resourceType === 'User')).toBe(true);
      expect(found.map((r) => r.id)).toEqual(expected.map((k) => created[k].id));
    });

    it('a value filter whose attribute no type has is still 400 invalidFilter', async () => {
      const response = await scim.call('POST', '/.search', { schemas: [URN.searchRequest], filter: 'favouriteColours[value eq "x"]' });
      expectScimError(response, 400, 'invalidFilter');
    });
  });
});
