import { describe, expect, it } from 'vitest';
import { readParams } from './params';

describe('the iframe URL parameters', () => {
  it.each([
    ['theme=dark', { theme: 'dark', problems: [] }],
    ['theme=light', { theme: 'light', problems: [] }],
    ['', { theme: undefined, problems: [] }],
    ['theme=', { theme: undefined, problems: [] }],
    ['theme=blue', { theme: undefined, problems: [{ parameter: 'theme', message: '"blue" is not a theme; use light or dark' }] }],
    ['theme=Dark', { theme: undefined, problems: [{ parameter: 'theme', message: '"Dark" is not a theme; use light or dark' }] }],
    ['locale=de-DE', { locale: 'de-DE', problems: [] }],
    [
      'locale=not_a_locale!',
      { locale: undefined, problems: [{ parameter: 'locale', message: expect.stringContaining('is not a language tag') }] },
    ],
    ['hideTitle=true&hide_back_button=1', { hideTitle: true, hideBackButton: true, hideEdit: false }],
  ])('%s', (query, expected) => {
    expect(readParams(new URLSearchParams(query))).toMatchObject(expected);
  });
});
