import type { Factory } from './factory.js';

/** An option of a verb, in commander's notation (`-d, --data <json>`). */
export interface OptionSpec {
  flags: string;
  description: string;
  defaultValue?: string | boolean | string[];
  /** Repeatable (`-q a=1 -q b=2`) collects into an array. */
  repeatable?: boolean;
  required?: boolean;
  /** The only values allowed, checked by the client before any request (`--role admin|member`). */
  choices?: readonly string[];
}

/**
 * One command verb: what it declares (name, arguments, options, help) and the function that runs
 * it. `run` receives its dependencies from the factory and never reads process state itself.
 */
export interface Verb {
  name: string;
  summary: string;
  description?: string;
  aliases?: string[];
  /** Commander argument notation: `<id>`, `[pattern]`, `<files...>`. */
  args?: string[];
  options?: OptionSpec[];
  examples?: string[];
  run(f: Factory, args: string[], opts: Record<string, any>): Promise<void>;
}

/** A command group (`plinth users …`): its verbs (or nested groups), loaded only when the group is used. */
export interface Group {
  name: string;
  summary: string;
  verbs: Array<Verb | Group>;
}

export function isGroup(item: Verb | Group): item is Group {
  return 'verbs' in item;
}

export function defineVerb(verb: Verb): Verb {
  return verb;
}
