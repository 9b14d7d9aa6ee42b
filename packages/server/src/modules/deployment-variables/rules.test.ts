import { describe, expect, it } from 'vitest';
import { ApiError } from '../../http/errors.js';
import { checkName, checkValue, isSecret } from './rules.js';

const refusal = (check: () => void): string | null => {
  try {
    check();
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    return (error as ApiError).message;
  }
};

describe('variable names', () => {
  it.each(['A', '_', 'CUBEJS_DB_HOST', '_PRIVATE', 'A1', 'X'.repeat(128)])('accepts %s', (name) => {
    expect(refusal(() => checkName(name))).toBeNull();
  });
  it.each([
    ['lower case', 'cubejs_db_host', /must be upper-case letters, digits and underscores/],
    ['a leading digit', '1ABC', /not starting with a digit/],
    ['a dash', 'MY-VAR', /must be upper-case/],
    ['a space', 'MY VAR', /must be upper-case/],
    ['an equals sign', 'A=B', /must be upper-case/],
    ['an empty name', '', /must be upper-case/],
    ['129 characters', 'X'.repeat(129), /longer than 128 characters/],
  ])('refuses %s', (_, name, message) => {
    expect(refusal(() => checkName(name))).toMatch(message);
  });
});

describe('variable values', () => {
  it.each([
    ['one character', 'x'],
    ['exactly 64 KiB', 'x'.repeat(65_536)],
    ['multi-byte text within 64 KiB', 'é'.repeat(32_768)],
  ])('accepts %s', (_, value) => {
    expect(refusal(() => checkValue('V', value))).toBeNull();
  });
  it.each([
    ['an empty value', '', 'Variable V has an empty value: unset it instead'],
    ['64 KiB and one byte', 'x'.repeat(65_537), 'Variable V is larger than 64 KiB'],
    ['multi-byte text over 64 KiB', 'é'.repeat(32_769), 'Variable V is larger than 64 KiB'],
  ])('refuses %s', (_, value, message) => {
    expect(refusal(() => checkValue('V', value))).toBe(message);
  });
});

describe('secrets and masks', () => {
  it.each([
    ['CUBEJS_DB_PASS', undefined, true],
    ['CUBEJS_DB_PASSWORD', false, true],
    ['API_SECRET', false, true],
    ['STRIPE_KEY', undefined, true],
    ['GITHUB_TOKEN', undefined, true],
    ['CUBEJS_DB_HOST', undefined, false],
    ['CUBEJS_DB_HOST', false, false],
    ['CUBEJS_DB_HOST', true, true],
  ])('%s asked secret=%s is secret: %s', (name, asked, secret) => {
    expect(isSecret(name, asked)).toBe(secret);
  });
});
