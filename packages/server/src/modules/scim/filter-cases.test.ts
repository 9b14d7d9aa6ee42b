import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../http/errors.js';
import { createServices, type Services } from '../../services.js';
import type { Store } from '../../store/store.js';
import { testConfig } from '../../test-support/server.js';
import { openTestStore, storeKinds } from '../../test-support/stores.js';
import { URN } from './errors.js';
import { MAX_FILTER_LENGTH } from './filter.js';
import type { ScimContext } from './user-service.js';

/**
 * Filter cases at the edges of filter.ts (RFC 7644 §3.4.2.2): `null`, dateTimes, the LIKE
 * wildcards `%` and `_` inside values, type checks, and `pr` on empty strings and non-strings.
 * Users whose values differ only where a wrong translation would confuse them.
 *
 * These run on the SCIM service and a real store without the HTTP layer (scim-filter.test.ts
 * covers that path): starting the app costs seconds, and the mutation run (stryker.config.mjs)
 * starts these tests once per mutant.
 */
// Each sends its e-mail explicitly: what a user without `emails` presents may change (issue 10).
const work = (value: string) => [{ value, type: 'work', primary: true }];
const fixtures = {
  pct: {
    userName: 'pct@example.com',
    emails: work('pct@example.com'),
    displayName: 'Save 50% now',
    name: { givenName: 'a_b', familyName: 'Lee' },
    externalId: 'E-1',
  },
  fifty: {
    userName: 'fifty@example.com',
    emails: work('fifty@example.com'),
    displayName: 'Save 500 now',
    name: { givenName: 'axb' },
    externalId: 'E-2',
  },
  blank: { userName: 'blank@example.com', emails: work('blank@example.com'), displayName: '', name: { givenName: 'a%b' } },
  none: { userName: 'none@example.com', emails: work('none@example.com'), active: false },
} as const;
type Key = keyof typeof fixtures;
const all: Key[] = ['pct', 'fifty', 'blank', 'none'];
const except = (...keys: Key[]) => all.filter((k) => !keys.includes(k));

interface Found {
  id: string;
  userName: string;
  meta: { created: string; resourceType: string };
}

describe.each(storeKinds)('SCIM filter edge cases [%s]', (kind) => {
  let store: Store;
  let services: Services;
  let ctx: ScimContext;
  const created = {} as Record<Key, Found>;
  beforeAll(async () => {
    store = await openTestStore(kind);
    services = await createServices(store, testConfig());
    const account = await services.accounts.create(`filter-${randomBytes(5).toString('hex')}`);
    ctx = { accountId: account.id, base: 'http://plinth.test/api/scim/v2', actor: 'SCIM token 1' };
    for (const key of all) {
      created[key] = (await services.scim.users.create(ctx, { schemas: [URN.user], ...fixtures[key] })) as unknown as Found;
    }
  });
  afterAll(async () => {
    await store?.close();
  });

  const list = async (filter: string) => (await services.scim.users.list(ctx, { filter, count: 1000 })).Resources as unknown as Found[];

  /** The fixture users a filter selects. */
  async function matching(filter: string): Promise<Key[]> {
    const names = (await list(filter)).map((r) => r.userName);
    return all.filter((k) => names.includes(fixtures[k].userName));
  }

  /** The invalidFilter error a filter is refused with (400 at the route). */
  async function refusal(filter: string, search = false): Promise<{ status: number; scimType: unknown; detail: string }> {
    try {
      if (search) await services.scim.search(ctx, { filter });
      else await list(filter);
    } catch (error) {
      expect(error).toBeInstanceOf(ApiError);
      const { status, extra, message } = error as ApiError;
      return { status, scimType: extra.scimType, detail: message };
    }
    throw new Error(`expected "${filter}" to be refused`);
  }
  const invalidFilter = (detail: unknown) => ({ status: 400, scimType: 'invalidFilter', detail });

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
      expect(await refusal(filter)).toEqual(invalidFilter(expect.stringMatching(/null is not a valid comparison/)));
    });
  });

  describe('dateTime attributes compare as instants', () => {
    it('eq and ne against a stored instant, in any time zone', async () => {
      const instant = created.fifty.meta.created;
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
      expect(await refusal(filter)).toEqual(invalidFilter(expect.stringMatching(detail)));
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
      expect(await refusal(filter)).toEqual(invalidFilter(expect.stringMatching(detail)));
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
      ['a sub-attribute of a multi-valued attribute that no item has', 'emails.display pr', []],
      ['a sub-attribute of a multi-valued attribute that every item has', 'emails.type pr', all],
      ['a complex attribute with a sub-attribute that is not stored (meta.location)', 'meta pr', all],
    ])('%s', async (_label, filter, expected) => {
      expect(await matching(filter)).toEqual(expected);
    });
  });

  describe('logic, multi-valued attributes and schema prefixes', () => {
    it.each<[string, string, Key[]]>([
      ['or', 'externalId eq "E-1" or name.givenName eq "axb"', ['pct', 'fifty']],
      ['and', 'active eq true and externalId pr', ['pct', 'fifty']],
      ['and inside or', 'externalId eq "E-1" or active eq false and displayName eq null', ['pct', 'none']],
      ['a multi-valued attribute compared as a whole compares its value', 'emails co "FIFTY@"', ['fifty']],
      ['a schema-prefixed value filter, in any case', 'URN:IETF:PARAMS:SCIM:SCHEMAS:CORE:2.0:USER:emails[value sw "pct@"]', ['pct']],
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
      expect(await refusal(filter)).toEqual(invalidFilter(expect.stringMatching(detail)));
    });
  });

  describe('paths that are not attributes', () => {
    it.each([
      ['an unknown sub-attribute in a value filter', 'emails[colour eq "x"]', /is not a sub-attribute of emails/],
      ['a value filter inside a value filter', 'emails[value eq "x" and emails[type eq "work"]]', /cannot be nested/],
      ['a value filter on an unknown attribute', 'favouriteColours[value eq "x"]', /is not a multi-valued attribute of User/],
      ['an unknown attribute', 'favouriteColour eq "red"', /is not an attribute of User/],
      ['a value filter on a singular attribute', 'displayName[value eq "x"]', /"displayName" is not a multi-valued attribute of User/],
      ['a sub-attribute of the wrong type in a value filter, named in full', 'emails[primary eq "yes"]', /^"emails\.primary" is a boolean/],
      ['an attribute that is not stored', 'meta.location eq "x"', /"meta\.location" cannot be filtered on/],
      ['a complex attribute compared as a whole', 'meta co "x"', /is complex/],
    ])('%s is 400 invalidFilter', async (_label, filter, detail) => {
      expect(await refusal(filter)).toEqual(invalidFilter(expect.stringMatching(detail)));
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
      expect(await refusal(ofLength(MAX_FILTER_LENGTH + 1))).toEqual(invalidFilter('The filter is longer than 4096 characters'));
    });
    it('a malformed filter is quoted in the detail', async () => {
      expect(await refusal('userName eq')).toEqual(invalidFilter(expect.stringMatching(/^The filter "userName eq" is not valid: \S/)));
    });
  });

  describe('POST /.search: an attribute one type lacks is absent there, not an error', () => {
    const search = async (filter: string) => (await services.scim.search(ctx, { filter, count: 1000 })).Resources as unknown as Found[];
    it.each<[string, string, Key[]]>([
      ['a value filter on users only', 'emails[value sw "pct@"]', ['pct']],
      ['a user-only comparison', 'name.givenName eq "axb"', ['fifty']],
    ])('%s', async (_label, filter, expected) => {
      const found = await search(filter);
      expect(found.every((r) => r.meta.resourceType === 'User')).toBe(true);
      expect(found.map((r) => r.id)).toEqual(expected.map((k) => created[k].id));
    });

    it('a value filter whose attribute no type has is still 400 invalidFilter', async () => {
      expect(await refusal('favouriteColours[value eq "x"]', true)).toEqual(invalidFilter(expect.stringMatching(/favouriteColours/)));
    });
  });
});
