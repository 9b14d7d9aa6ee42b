import { readJsonArg } from '../../../core/body.js';
import { defineOptions, defineVerb } from '../../../core/define.js';
import { UsageError } from '../../../core/errors.js';
import { DATA_OPTION } from '../../../core/rest.js';
import { asObject, bodyFromFlags } from '../../app/theme/nested.js';

const options = defineOptions([
  { flags: '--primary-color <colour>', description: 'Primary colour, e.g. #1a73e8 (none: unset)' },
  { flags: '--font <family>', description: 'CSS font-family list, e.g. "Inter, sans-serif" (none: unset)' },
  { flags: '--chat-input-color <colour>', description: "Chat's input colour" },
  { flags: '--analytics-background-color <colour>', description: "Analytics chat's background" },
  { flags: '--analytics-input-background-color <colour>', description: "Analytics chat input's background" },
  { flags: '--analytics-input-border-color <colour>', description: "Analytics chat input's border" },
  { flags: '--reset', description: 'Unset everything' },
  DATA_OPTION,
]);

const PATHS = {
  primaryColor: ['primaryColor'],
  font: ['font'],
  chatInputColor: ['chat', 'inputColor'],
  analyticsBackgroundColor: ['analyticsChat', 'backgroundColor'],
  analyticsInputBackgroundColor: ['analyticsChat', 'chatInput', 'backgroundColor'],
  analyticsInputBorderColor: ['analyticsChat', 'chatInput', 'borderColor'],
} as const;

export const set = defineVerb({
  name: 'set',
  summary: "Change the account's embed theme (updateEmbedTheme)",
  description:
    'The server replaces the theme whole; this command reads the current one and changes only what the flags name. ' +
    '-d gives the whole theme instead (flags then apply on top); --reset unsets everything. A flag value of none unsets that property.',
  options,
  examples: [
    'plinth users embed-theme set --primary-color "#1a73e8" --font "Inter, sans-serif"',
    'plinth users embed-theme set --chat-input-color none',
    'plinth users embed-theme set --reset',
  ],
  async run(f, _args, opts) {
    const given = Object.keys(PATHS).some((key) => (opts as Record<string, unknown>)[key] !== undefined);
    if (opts.reset && (given || opts.data !== undefined)) throw new UsageError('--reset does not go with other flags or -d');
    if (!opts.reset && !given && opts.data === undefined) throw new UsageError('give at least one of the flags, -d or --reset');
    const client = await f.client();
    let base: Record<string, unknown> = {};
    if (opts.data !== undefined) base = asObject(await readJsonArg(f.io, opts.data), '-d');
    else if (!opts.reset) base = asObject((await client.request('GET', '/api/v1/users/embed-theme')).data, 'The current theme');
    const body = bodyFromFlags(opts as Record<string, unknown>, PATHS, undefined, base);
    const response = await client.request('PUT', '/api/v1/users/embed-theme', { body });
    f.output.status('Embed theme updated');
    f.output.object(response);
  },
});
