import { defineVerb } from '../../core/define.js';
import { UsageError } from '../../core/errors.js';
import { formatObject } from '../../core/output.js';
import { authOf } from './list.js';

const mask = (secret: string | undefined) => (secret ? `${secret.slice(0, 6)}…` : '');

export const show = defineVerb({
  name: 'show',
  summary: 'Show a context (the current one by default); secrets are shortened',
  args: ['[name]'],
  async run(f, [given]) {
    const config = await f.config();
    const name = given ?? f.globals.context ?? config.current_context;
    const context = name ? config.contexts[name] : undefined;
    if (!name || !context) throw new UsageError(name ? `No context named "${name}"` : 'No current context; run `plinth login`');
    const view = {
      name,
      current: name === config.current_context,
      url: context.url,
      user: context.user ?? '',
      auth: authOf(context),
      credential: mask(context.api_key ?? context.access_token),
      expires_at: context.expires_at ?? '',
      config_file: await f.configPath(),
    };
    f.output.data(f.output.json ? JSON.stringify(view, null, 2) : formatObject(view));
  },
});
