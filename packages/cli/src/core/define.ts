import type { Factory } from './factory.js';

/** An option of a verb, in commander's notation (`-d, --data <json>`); the notation gives its type (OptionsOf). */
export interface OptionSpec<F extends string = string> {
  flags: F;
  description: string;
  defaultValue?: string | boolean | string[];
  /** Repeatable (`-q a=1 -q b=2`) collects into an array. */
  repeatable?: boolean;
  required?: boolean;
  /** The only values allowed, checked by the client before any request (`--role admin|member`). */
  choices?: readonly string[];
}

/** The long flag's name as commander keys it in opts(): `-d, --data <json>` is `data`, `--display-name <n>` `displayName`. */
type KeyOf<F extends string> = F extends `${string}--${infer Rest}` ? Camel<Rest extends `${infer Name} ${string}` ? Name : Rest> : never;
type Camel<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<Camel<Tail>>}` : S;
/** `<value>` gives a string (an array when repeatable), a bare flag gives true; absent unless required or defaulted. */
type ValueOf<O extends OptionSpec> =
  | (O['flags'] extends `${string}<${string}` ? (O extends { repeatable: true } ? string[] : string) : boolean)
  | (O extends { required: true } | { defaultValue: string | boolean | string[] } ? never : undefined);

/** The options a verb receives, as its declarations say: reading an option it did not declare does not compile. */
export type OptionsOf<Options extends readonly OptionSpec[]> = { [O in Options[number] as KeyOf<O['flags']>]: ValueOf<O> };

/** Declares options once for several verbs, keeping each flag's literal notation (and so its type). */
export function defineOptions<const Options extends readonly OptionSpec[]>(options: Options): Options {
  return options;
}

/**
 * One command verb: what it declares (name, arguments, options, help) and the function that runs
 * it. `run` receives its dependencies from the factory and never reads process state itself.
 * `Opts` is what `run` reads; defineVerb derives it from `options`.
 */
export interface Verb<Opts = object> {
  name: string;
  summary: string;
  description?: string;
  aliases?: string[];
  /** Commander argument notation: `<id>`, `[pattern]`, `<files...>`. */
  args?: string[];
  options?: readonly OptionSpec[];
  examples?: string[];
  run(f: Factory, args: string[], opts: Opts): Promise<void>;
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

/** A verb whose `run` sees its options typed by its declarations; the tree keeps it as a plain Verb. */
export function defineVerb<const Options extends readonly OptionSpec[] = []>(verb: Verb<OptionsOf<Options>> & { options?: Options }): Verb {
  return verb as Verb;
}

/** A verb built by a helper (rest.ts) that states the options its `run` reads, for declarations it assembles. */
export function builtVerb<Opts>(verb: Verb<Opts>): Verb {
  return verb as Verb;
}
