import type { Context } from '../../core/config.js';
import { defineVerb } from '../../core/define.js';
import { formatTable } from '../../core/output.js';

export function authOf(context: Context): string {
  if (context.api_key) return 'api-key';
  if (context.access_token) return 'device-login';
  return 'none';
}

export const list = defineVerb({
  name: 'list',
  aliases: ['ls'],
  summary: 'List saved contexts; * marks the current one',
  async run(f) {
    const config = await f.config();
    const rows = Object.entries(config.contexts).map(([name, context]) => ({
      current: name === config.current_context,
      name,
      url: context.url,
      user: context.user ?? '',
      auth: authOf(context),
    }));
    if (f.output.json) return f.output.data(JSON.stringify(rows, null, 2));
    if (rows.length === 0) return f.output.notice('No results');
    f.output.data(
      formatTable(
        [
          ['', (r) => (r.current ? '*' : '')],
          ['Name', 'name'],
          ['URL', 'url'],
          ['User', 'user'],
          ['Auth', 'auth'],
        ],
        rows,
      ),
    );
  },
});
