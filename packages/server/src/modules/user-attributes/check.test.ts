import { describe, expect, it } from 'vitest';
import type { AttributeType } from '../../store/schema.js';
import { checkAttributeValue, parseDefaultValue } from './check.js';

describe("2.6 a value must match its definition's type", () => {
  const cases: Array<[AttributeType, unknown, boolean]> = [
    ['string', 'eu', true],
    ['string', '', true],
    ['string', 1, false],
    ['string', ['eu'], false],
    ['string', true, false],
    ['number', 42, true],
    ['number', -1.5, true],
    ['number', '42', false],
    ['number', Number.NaN, false],
    ['number', Number.POSITIVE_INFINITY, false],
    ['number', [1], false],
    ['string_array', ['a', 'b'], true],
    ['string_array', [], true],
    ['string_array', ['a', 1], false],
    ['string_array', 'a', false],
    ['number_array', [1, 2.5], true],
    ['number_array', [], true],
    ['number_array', [1, '2'], false],
    ['number_array', [1, null], false],
    ['number_array', { 0: 1 }, false],
  ];
  it.each(cases)('%s accepts %j: %s', (type, value, ok) => {
    expect(checkAttributeValue(type, value)).toBe(ok);
  });
  it.each(['string', 'number', 'string_array', 'number_array'] as AttributeType[])('%s does not take null as a value', (type) => {
    expect(checkAttributeValue(type, null)).toBe(false);
  });
});

describe('defaultValue is text that parses as the type', () => {
  const cases: Array<[AttributeType, string, unknown]> = [
    ['string', 'anything at all', 'anything at all'],
    ['number', '42', 42],
    ['number', ' -3.5 ', -3.5],
    ['number', '', undefined],
    ['number', 'abc', undefined],
    ['number', 'Infinity', undefined],
    ['string_array', '["a","b"]', ['a', 'b']],
    ['string_array', '[1]', undefined],
    ['string_array', 'a,b', undefined],
    ['number_array', '[1,2]', [1, 2]],
    ['number_array', '["1"]', undefined],
    ['number_array', '{}', undefined],
  ];
  it.each(cases)('%s from %j gives %j', (type, text, parsed) => {
    expect(parseDefaultValue(type, text)).toEqual(parsed);
  });
});
