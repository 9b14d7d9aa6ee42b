import { isGroup, type Group, type OptionSpec, type Verb } from '../../core/define.js';
import type { Entry } from '../index.js';

/** One node of the command tree, as completion scripts see it. */
export interface Node {
  path: string;
  words: Array<{ name: string; summary: string }>;
}

const GLOBAL = ['--json', '--context', '--help'];
const longFlags = (options: readonly OptionSpec[] = []) =>
  options.map((o) => /--[a-z0-9-]+/.exec(o.flags)?.[0]).filter((x): x is string => !!x);

/** Every path of the tree with the words that may follow it (sub-commands, or a verb's flags). */
export function nodes(entries: Array<{ entry: Entry; loaded: Group | { verb: Verb } }>): Node[] {
  const out: Node[] = [
    {
      path: '',
      words: [
        ...entries.map(({ entry }) => ({ name: entry.name, summary: entry.summary })),
        { name: '--version', summary: 'Print the version' },
      ],
    },
  ];
  const walk = (path: string, item: Group | Verb) => {
    if (isGroup(item)) {
      out.push({ path, words: item.verbs.map((v) => ({ name: v.name, summary: v.summary })) });
      for (const v of item.verbs) walk(`${path} ${v.name}`, v);
    } else {
      out.push({ path, words: [...longFlags(item.options), ...GLOBAL].map((name) => ({ name, summary: '' })) });
    }
  };
  for (const { entry, loaded } of entries) walk(entry.name, 'verbs' in loaded ? loaded : loaded.verb);
  return out;
}

export function bashScript(tree: Node[]): string {
  const cases = [...tree]
    .sort((a, b) => b.path.split(' ').length - a.path.split(' ').length || b.path.length - a.path.length)
    .map((n) => `    ${n.path === '' ? '""' : `"${n.path}"|"${n.path} "*`}) words="${n.words.map((w) => w.name).join(' ')}" ;;`)
    .join('\n');
  return `# bash completion for plinth. Install: plinth completion bash > /etc/bash_completion.d/plinth
_plinth() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" path="" words="" i w
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    case "$w" in -c|--context) ((i++)); continue ;; -*) continue ;; esac
    path="\${path:+$path }$w"
  done
  case "$path" in
${cases}
    *) words="--help" ;;
  esac
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -F _plinth plinth
`;
}

export function zshScript(tree: Node[]): string {
  return `#compdef plinth
# zsh completion for plinth. Install: plinth completion zsh > "\${fpath[1]}/_plinth"
autoload -U +X bashcompinit && bashcompinit
${bashScript(tree).split('\n').slice(1).join('\n')}`;
}

const fishQuote = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

export function fishScript(tree: Node[]): string {
  const lines = tree.flatMap((n) =>
    n.words.map((w) => {
      const condition = fishQuote(`test "(__plinth_path)" = "${n.path}"`);
      const word = w.name.startsWith('--') ? `-l ${w.name.slice(2)}` : `-a ${fishQuote(w.name)}`;
      return `complete -c plinth -f -n ${condition} ${word}${w.summary ? ` -d ${fishQuote(w.summary)}` : ''}`;
    }),
  );
  return `# fish completion for plinth. Install: plinth completion fish > ~/.config/fish/completions/plinth.fish
function __plinth_path
  set -l tokens (commandline -opc)
  set -e tokens[1]
  string join ' ' -- (string match -v -- '-*' $tokens)
end
${lines.join('\n')}
`;
}
