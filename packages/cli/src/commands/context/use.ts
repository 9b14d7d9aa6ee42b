import { defineVerb } from '../../core/define.js';
import { UsageError } from '../../core/errors.js';

export const use = defineVerb({
  name: 'use',
  summary: 'Make a context the current one',
  args: ['<name>'],
  async run(f, [name]) {
    const config = await f.config();
    if (!config.contexts[name!]) {
      throw new UsageError(`No context named "${name}"`, `Known contexts: ${Object.keys(config.contexts).join(', ') || 'none'}`);
    }
    config.current_context = name;
    await f.saveConfig(config);
    f.output.notice(`Switched to context "${name}".`);
  },
});
