import { describe, expect, it } from 'vitest';
import { fontFamilyProblem, isColour } from './public.js';

describe('theme values', () => {
  it.each([
    '#abc',
    '#ABCD',
    '#a1b2c3',
    '#a1b2c3d4',
    'rgb(0, 128, 255)',
    'rgba(0,0,0,0.5)',
    'RGB(255,255,255)',
    'hsl(210, 40%, 98%)',
    'hsla(0deg, 0%, 0%, 1)',
  ])('accepts the colour %s', (value) => expect(isColour(value)).toBe(true));

  it.each([
    'red',
    'transparent',
    '#ab',
    '#abcde',
    '#ggg',
    'rgb(256, 0, 0)',
    'rgb(0 0 0)',
    'rgba(0, 0, 0, 2)',
    'hsl(361, 0%, 0%)',
    'hsl(0, 101%, 0%)',
    '#fff;}',
    'url(#fff)',
    `#${'f'.repeat(70)}`,
  ])('refuses the colour %s', (value) => expect(isColour(value)).toBe(false));

  it.each(['Inter', 'Inter, sans-serif', '"Open Sans", Arial, sans-serif', "'Fira Code', monospace", 'system-ui', 'Noto_Sans-Display 2'])(
    'accepts the font-family %s',
    (value) => expect(fontFamilyProblem(value)).toBeNull(),
  );

  it.each([
    ['', 'empty'],
    ['Arial; color: red', 'Arial; color: red'],
    ['"Open Sans', '"Open Sans'],
    ['Inter, , serif', '""'],
    ['url(x)', 'url(x)'],
    ['a'.repeat(201), '200'],
    ['a,b,c,d,e,f,g,h,i,j,k', 'more than 10'],
    ['Open  Sans', 'Open  Sans'],
    ['"Arial"; x', '"Arial"; x'],
  ])('refuses the font-family %j, saying %s', (value, said) => expect(fontFamilyProblem(value)).toContain(said));
});
