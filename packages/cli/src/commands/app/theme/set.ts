import { bool, int, readJsonArg } from '../../../core/body.js';
import { defineOptions, defineVerb } from '../../../core/define.js';
import { UsageError } from '../../../core/errors.js';
import { DATA_OPTION } from '../../../core/rest.js';
import { asObject, bodyFromFlags } from './nested.js';

const scheme = (name: 'light' | 'dark') =>
  [
    { flags: `--${name}-accent-color <colour>`, description: `Accent colour of the ${name} scheme` },
    { flags: `--${name}-background-color <colour>`, description: `Background of the ${name} scheme` },
    { flags: `--${name}-foreground-color <colour>`, description: `Text colour of the ${name} scheme` },
    { flags: `--${name}-contrast <n>`, description: `Contrast of the ${name} scheme, 0 to 100` },
    { flags: `--${name}-logo-url <url>`, description: `Logo of the ${name} scheme ("" for none)` },
  ] as const;

const options = defineOptions([
  { flags: '--apply-globally <bool>', description: 'Apply the theme to the whole application (true or false)' },
  ...scheme('light'),
  ...scheme('dark'),
  { flags: '--body-font <font>', description: 'Body text: a font id of typography.fonts or a CSS font-family list' },
  { flags: '--body-weight <n>', description: 'Body text font weight, 1 to 1000' },
  { flags: '--heading-font <font>', description: 'Headings: a font id of typography.fonts or a CSS font-family list' },
  { flags: '--heading-weight <n>', description: 'Headings font weight, 1 to 1000' },
  DATA_OPTION,
]);

const PATHS = {
  applyGlobally: ['applyThemeGlobally'],
  ...Object.fromEntries(
    (['light', 'dark'] as const).flatMap((s) =>
      ['AccentColor', 'BackgroundColor', 'ForegroundColor', 'Contrast', 'LogoUrl'].map((p) => [
        `${s}${p}`,
        [s, p[0]!.toLowerCase() + p.slice(1)],
      ]),
    ),
  ),
  bodyFont: ['typography', 'body', 'fontRef'],
  bodyWeight: ['typography', 'body', 'fontWeight'],
  headingFont: ['typography', 'heading', 'fontRef'],
  headingWeight: ['typography', 'heading', 'fontWeight'],
} as Record<string, readonly string[]>;

const flagOf = (key: string) => `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

function convert(key: string, value: string): unknown {
  if (key === 'applyGlobally') return bool(value, '--apply-globally');
  if (key.endsWith('Weight') || key.endsWith('Contrast')) {
    if (!/^\d+(\.\d+)?$/.test(value)) throw new UsageError(`${flagOf(key)} expects a number, got "${value}"`);
    return key.endsWith('Weight') ? int(value, flagOf(key)) : Number(value);
  }
  return value;
}

export const set = defineVerb({
  name: 'set',
  summary: "Change the account's app theme: only what is given changes (updateAppTheme)",
  description:
    'Flags set single properties; -d gives a partial theme as JSON (e.g. the typography.fonts list), the flags apply on top. ' +
    'Colours: #rgb, #rrggbb, #rrggbbaa, rgb(), rgba(), hsl(), hsla().',
  options,
  examples: [
    'plinth app theme set --light-accent-color "#ff0066" --apply-globally true',
    `plinth app theme set -d '{"typography":{"fonts":[{"id":"brand","url":"https://cdn.example.com/brand.woff2","format":"woff2"}]}}' --heading-font brand`,
  ],
  async run(f, _args, opts) {
    const base = opts.data === undefined ? {} : asObject(await readJsonArg(f.io, opts.data), '-d');
    const body = bodyFromFlags(opts as Record<string, unknown>, PATHS, convert, base);
    if (Object.keys(body).length === 0) throw new UsageError('give at least one flag or -d');
    const client = await f.client();
    const response = await client.request('PUT', '/api/v1/app-theme', { body });
    f.output.status('App theme updated');
    f.output.object(response);
  },
});
