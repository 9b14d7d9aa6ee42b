import { describe, expect, it } from 'vitest';
import { ApiError } from '../../http/errors.js';
import {
  assertNoDuplicates,
  attributesNotFound,
  cannotChangeType,
  checkEmail,
  checkPicture,
  EMBED_TENANT_NAME,
  EMBED_TENANT_NAME_RULE,
  groupsNotFound,
  MAX_EXTERNAL_ID,
  normaliseExternalId,
} from './rules.js';

/**
 * The store-free rules of sections 2.4–2.9, at their edges. The same rules through the routes and
 * a real store are in tenant-names.test.ts and the embed tests.
 */

function rejection(run: () => unknown): { status: number; message: string } {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return { status: (error as ApiError).status, message: (error as ApiError).message };
  }
  throw new Error('expected a rejection');
}

const badRequest = (message: string) => ({ status: 400, message });

describe('embed tenant names (sections 2.4 and 8)', () => {
  it.each([
    ['five characters, the shortest', 'abcde'],
    ['thirty-six characters, the longest', `a${'b'.repeat(34)}c`],
    ['dashes and digits inside', 'acme-2-corp'],
    ['a digit last', 'tenant1'],
    ['a dash second', 'a-bcd'],
  ])('accepts %s', (_label, name) => {
    expect(EMBED_TENANT_NAME.test(name)).toBe(true);
  });

  it.each([
    ['four characters', 'abcd'],
    ['thirty-seven characters', `a${'b'.repeat(35)}c`],
    ['a digit first', '1abcde'],
    ['a dash first', '-abcde'],
    ['a dash last', 'abcde-'],
    ['an upper-case letter', 'Acme-corp'],
    ['an upper-case letter last', 'acme-corP'],
    ['an upper-case letter inside', 'acMe-corp'],
    ['an underscore', 'acme_corp'],
    ['a dot', 'acme.corp'],
    ['a space inside', 'acme corp'],
    ['a leading space', ' acme-corp'],
    ['a trailing newline', 'acme-corp\n'],
    ['a valid name followed by more', 'acme-corp/x'],
    ['a valid name after something else', 'x/acme-corp'],
    ['the empty string', ''],
  ])('refuses %s', (_label, name) => {
    expect(EMBED_TENANT_NAME.test(name)).toBe(false);
  });

  it('states the rule in words', () => {
    expect(EMBED_TENANT_NAME_RULE).toBe(
      'embedTenantName must be 5 to 36 characters of a-z, 0-9 and -, starting with a letter and ending with a letter or digit',
    );
  });
});

describe('externalId (section 2.4)', () => {
  it('allows at most 255 characters', () => {
    expect(MAX_EXTERNAL_ID).toBe(255);
  });

  it.each([
    ['trimmed and lowercased', ' Ann ', 'ann'],
    ['inner spaces kept', 'Ann  Lee', 'ann  lee'],
    ['tabs and newlines around are trimmed', '\tANN\n', 'ann'],
    ['exactly 255 characters', 'x'.repeat(255), 'x'.repeat(255)],
    ['255 characters after trimming', `  ${'X'.repeat(255)}  `, 'x'.repeat(255)],
    ['one character', 'A', 'a'],
  ])('%s', (_label, raw, expected) => {
    expect(normaliseExternalId(raw)).toBe(expected);
  });

  it.each([
    ['empty', '', 'externalId must not be empty or only whitespace'],
    ['only spaces', '   ', 'externalId must not be empty or only whitespace'],
    ['only a tab and a newline', '\t\n', 'externalId must not be empty or only whitespace'],
    ['256 characters', 'x'.repeat(256), 'externalId must be at most 255 characters'],
    ['256 characters after trimming', ` ${'x'.repeat(256)} `, 'externalId must be at most 255 characters'],
  ])('refuses %s', (_label, raw, message) => {
    expect(rejection(() => normaliseExternalId(raw))).toEqual(badRequest(message));
  });
});

describe('email', () => {
  it.each([
    ['as sent', 'ann@example.com', 'ann@example.com'],
    ['trimmed', '  ann@example.com \n', 'ann@example.com'],
    ['case kept', 'Ann@Example.com', 'Ann@Example.com'],
  ])('accepts an address %s', (_label, raw, expected) => {
    expect(checkEmail(raw)).toBe(expected);
  });

  it.each([
    ['no @', 'ann.example.com'],
    ['no domain', 'ann@'],
    ['a space inside', 'ann lee@example.com'],
    ['empty', ''],
    ['only spaces', '   '],
  ])('refuses %s, quoting what was sent', (_label, raw) => {
    expect(rejection(() => checkEmail(raw))).toEqual(badRequest(`email "${raw}" is not a valid email address`));
  });
});

describe('userProfile.picture (section 2.5 rule 4)', () => {
  it.each([
    ['https', 'https://cdn.example.com/a.png'],
    ['http with a port and a query', 'http://example.com:8080/a.png?size=64'],
    ['upper-case scheme', 'HTTPS://example.com/a.png'],
  ])('accepts %s, unchanged', (_label, raw) => {
    expect(checkPicture(raw)).toBe(raw);
  });

  it.each([
    ['a relative path', '/a.png'],
    ['no scheme', 'example.com/a.png'],
    ['ftp', 'ftp://example.com/a.png'],
    ['a data URL', 'data:image/png;base64,AAAA'],
    ['javascript', 'javascript:alert(1)'],
    ['file', 'file:///etc/passwd'],
    ['a space inside', 'https://example.com/a b.png'],
    ['a trailing newline', 'https://example.com/a.png\n'],
    ['a leading space', ' https://example.com/a.png'],
    ['a tab inside', 'https://example.com/\ta.png'],
    ['empty', ''],
  ])('refuses %s', (_label, raw) => {
    expect(rejection(() => checkPicture(raw))).toEqual(badRequest('userProfile.picture must be an absolute http:// or https:// URL'));
  });
});

describe('duplicate names and the verbatim messages (2.6–2.9)', () => {
  it.each([
    ['no names', []],
    ['distinct names', ['a', 'b', 'c']],
    ['names that differ only in case', ['a', 'A']],
  ])('accepts %s', (_label, names) => {
    expect(() => assertNoDuplicates(names, 'groups')).not.toThrow();
  });

  it.each([
    ['adjacent', ['a', 'a'], 'a'],
    ['apart, naming the first repeated', ['a', 'b', 'c', 'b', 'a'], 'b'],
  ])('refuses a name twice, %s', (_label, names, repeated) => {
    expect(rejection(() => assertNoDuplicates(names, 'userAttributes'))).toEqual(
      badRequest(`Duplicate name "${repeated}" in userAttributes`),
    );
  });

  it.each<[string, () => ApiError, string]>([
    ['unresolved groups in request order', () => groupsNotFound(['b', 'a']), 'Groups with names b, a not found'],
    ['one unresolved group', () => groupsNotFound(['x']), 'Groups with names x not found'],
    ['unknown attributes', () => attributesNotFound(), 'User attributes not found'],
    ['a changed attribute type', () => cannotChangeType(), 'cannot change type'],
  ])('%s', (_label, make, message) => {
    const error = make();
    expect(error).toBeInstanceOf(ApiError);
    expect({ status: error.status, message: error.message }).toEqual(badRequest(message));
  });
});
