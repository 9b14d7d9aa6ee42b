import { describe, expect, it } from 'vitest';
import { badEncodingIn, badValueIn } from './text-rule.js';

describe('the bad-input rule', () => {
  it.each<[string, unknown, string | undefined]>([
    ['plain text', { name: 'Ann Lee' }, undefined],
    ['an emoji (a surrogate pair)', { name: 'ship 🚢' }, undefined],
    ['accented and CJK text', { name: 'Zoë 東京' }, undefined],
    ['a NUL', { name: 'a\u0000b' }, 'name must not contain a NUL character (U+0000)'],
    ['a lone high surrogate', { name: 'x\uD83D' }, 'name must not contain an unpaired UTF-16 surrogate'],
    ['a lone low surrogate', { name: '\uDE80x' }, 'name must not contain an unpaired UTF-16 surrogate'],
    ['reversed surrogates', { name: '\uDE80\uD83D' }, 'name must not contain an unpaired UTF-16 surrogate'],
    ['a deep string', { a: [{ b: { c: ['ok', 'x\u0000'] } }] }, 'a[0].b.c[1] must not contain a NUL character (U+0000)'],
    ['a property name', { ['k\u0000']: 1 }, 'A property name in the body must not contain a NUL character (U+0000)'],
    ['an infinite number', { n: Number.POSITIVE_INFINITY }, 'n must be a finite number'],
    ['NaN', { n: Number.NaN }, 'n must be a finite number'],
    ['a large finite number', { n: 1e300 }, undefined],
    ['null, booleans and numbers', { a: null, b: true, c: 0 }, undefined],
  ])('%s', (_label, value, expected) => {
    expect(badValueIn(value, '')).toBe(expected);
  });

  it('walks a deeply nested body without overflowing the stack', () => {
    let value: unknown = 'x\u0000';
    for (let i = 0; i < 200_000; i++) value = [value];
    expect(badValueIn(value, '')).toMatch(/must not contain a NUL/);
  });

  it('skips the array it is told to skip (bulk entries), and only that one', () => {
    const entries = [{ name: 'x\u0000' }];
    expect(badValueIn({ users: entries }, '', entries)).toBeUndefined();
    expect(badValueIn({ users: entries, other: [{ name: 'x\u0000' }] }, '', entries)).toMatch(/^other\[0\]\.name/);
  });

  it.each<[string, string | undefined]>([
    ['q=plain', undefined],
    ['q=%F0%9F%9A%A2', undefined],
    ['q=100%', undefined],
    ['q=%zz', undefined],
    ['q=x%ED%A0%80', 'query parameter q is not UTF-8 once percent-decoded (a lone surrogate or a cut sequence)'],
    ['a=1&after=%E0%A4', 'query parameter after is not UTF-8 once percent-decoded (a lone surrogate or a cut sequence)'],
  ])('the raw query %s', (raw, expected) => {
    expect(badEncodingIn(raw, 'query parameter')).toBe(expected);
  });
});
