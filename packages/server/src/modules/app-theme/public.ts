import { badRequest } from '../../http/errors.js';

/**
 * The values a theme accepts, shared by the app theme and the embed theme (users module). Both end
 * up in CSS that the application and embedded pages emit, so anything that could close a
 * declaration or open a `url(...)` is refused rather than escaped.
 *
 * Colours: `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`; `rgb(r, g, b)` / `rgba(r, g, b, a)` with
 * channels 0–255 and alpha 0–1; `hsl(h, s%, l%)` / `hsla(h, s%, l%, a)` with hue 0–360. Commas
 * separate the arguments; named colours and the space-separated syntax are not accepted, so every
 * stored colour is one of these few forms.
 *
 * Fonts: a CSS font-family list of at most 10 families, each a generic family (`sans-serif`, ...)
 * or a family name of letters, digits, spaces, hyphens and underscores, optionally in matching
 * single or double quotes (`"Open Sans", Arial, sans-serif`). Any family name is allowed, not a
 * closed list: a Google font or the account's own uploaded font must work without a release.
 */
export const COLOUR_FORMS = '#rgb, #rgba, #rrggbb, #rrggbbaa, rgb(r, g, b), rgba(r, g, b, a), hsl(h, s%, l%) or hsla(h, s%, l%, a)';
export const MAX_COLOUR_LENGTH = 64;
export const MAX_FONT_FAMILY_LENGTH = 200;
export const MAX_FONT_FAMILIES = 10;

const HEX = /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
const NUMBER = String.raw`\s*(\d{1,3}(?:\.\d+)?)\s*`;
const PERCENT = String.raw`\s*(\d{1,3}(?:\.\d+)?)%\s*`;
const ALPHA = String.raw`(?:,\s*(0|1|0?\.\d+|1\.0+)\s*)?`;
const RGB = new RegExp(`^rgba?\\(${NUMBER},${NUMBER},${NUMBER}${ALPHA}\\)$`, 'i');
const HSL = new RegExp(`^hsla?\\(${NUMBER}(?:deg)?\\s*,${PERCENT},${PERCENT}${ALPHA}\\)$`, 'i');

export function isColour(value: string): boolean {
  if (value.length > MAX_COLOUR_LENGTH) return false;
  if (HEX.test(value)) return true;
  const rgb = RGB.exec(value);
  if (rgb) return [rgb[1], rgb[2], rgb[3]].every((c) => Number(c) <= 255);
  const hsl = HSL.exec(value);
  if (hsl) return Number(hsl[1]) <= 360 && Number(hsl[2]) <= 100 && Number(hsl[3]) <= 100;
  return false;
}

const GENERIC_FAMILIES = new Set([
  'serif',
  'sans-serif',
  'monospace',
  'cursive',
  'fantasy',
  'system-ui',
  'ui-serif',
  'ui-sans-serif',
  'ui-monospace',
  'ui-rounded',
  'math',
  'emoji',
  'fangsong',
]);
const FAMILY_NAME = /^[A-Za-z0-9][A-Za-z0-9 _-]{0,63}$/;

/** Why a font-family list is refused, or null when it is acceptable. */
export function fontFamilyProblem(value: string): string | null {
  if (value.trim().length === 0) return 'is empty';
  if (value.length > MAX_FONT_FAMILY_LENGTH) return `is longer than ${MAX_FONT_FAMILY_LENGTH} characters`;
  const families = value.split(',').map((f) => f.trim());
  if (families.length > MAX_FONT_FAMILIES) return `names more than ${MAX_FONT_FAMILIES} families`;
  for (const family of families) {
    const quoted = /^(['"])(.*)\1$/.exec(family);
    const name = quoted ? quoted[2]! : family;
    if (!quoted && GENERIC_FAMILIES.has(name.toLowerCase())) continue;
    if (!FAMILY_NAME.test(name) || /\s{2,}/.test(name)) {
      return `has the family "${family}"; a family is a generic family or a name of letters, digits, spaces, hyphens and underscores (at most 64), optionally quoted`;
    }
  }
  return null;
}

/** Throws a 400 naming the field unless `value` is an accepted colour. */
export function checkColour(field: string, value: string): void {
  if (!isColour(value)) throw badRequest(`${field}: "${value.slice(0, MAX_COLOUR_LENGTH)}" is not an accepted colour; use ${COLOUR_FORMS}`);
}

/** Throws a 400 naming the field unless `value` is an accepted font-family list. */
export function checkFontFamily(field: string, value: string): void {
  const problem = fontFamilyProblem(value);
  if (problem) throw badRequest(`${field} ${problem}`);
}

/** Walks a theme object and checks every colour field (names ending in `Color`) it holds. */
export function checkColours(theme: object, prefix = ''): void {
  for (const [key, value] of Object.entries(theme)) {
    const field = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string' && key.endsWith('Color')) checkColour(field, value);
    else if (value !== null && typeof value === 'object' && !Array.isArray(value)) checkColours(value, field);
  }
}
