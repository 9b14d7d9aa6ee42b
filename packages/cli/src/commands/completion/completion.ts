import { defineVerb } from '../../core/define.js';
import { UsageError } from '../../core/errors.js';
import { loadAll } from '../index.js';
import { bashScript, fishScript, nodes, zshScript } from './scripts.js';

export const verb = defineVerb({
  name: 'completion',
  summary: 'Print a shell completion script',
  args: ['<shell>'],
  examples: [
    'plinth completion bash > ~/.local/share/bash-completion/completions/plinth',
    'plinth completion zsh > "${fpath[1]}/_plinth"',
    'plinth completion fish > ~/.config/fish/completions/plinth.fish',
  ],
  async run(f, [shell]) {
    const tree = nodes(await loadAll());
    const scripts: Record<string, () => string> = {
      bash: () => bashScript(tree),
      zsh: () => zshScript(tree),
      fish: () => fishScript(tree),
    };
    const make = scripts[shell ?? ''];
    if (!make) throw new UsageError(`Unknown shell "${shell}"; use bash, zsh or fish`);
    f.output.data(make());
  },
});
