import { Command, Option } from 'commander';
import { manifest, type Entry } from '../commands/index.js';
import { isGroup, type Group, type Verb } from './define.js';
import { Factory, type GlobalFlags } from './factory.js';
import type { IO } from './io.js';

export interface ProgramState {
  program: Command;
  /** The command group that ran (for telemetry), once a verb's action started. */
  ran?: string;
  factory?: Factory;
  /** The verb whose action started, so a usage error it raises can print that verb's usage. */
  command?: Command;
}

/** The full command path (`plinth users create`). */
export function commandPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/**
 * What follows a usage error: the usage line of the command it concerns and where its full help
 * is, as gh does; never the whole list of commands.
 */
export function usageOf(command: Command): string {
  const path = commandPath(command);
  return `\nUsage: ${path} ${command.usage()}\nRun \`${path} --help\` for its flags and the global flags.`;
}

/** The first operand of argv, skipping global options and their values: the group asked for. */
export function selectedEntry(argv: string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '-c' || arg === '--context') i++;
    else if (arg === 'help') continue;
    else if (!arg.startsWith('-')) return arg;
  }
  return undefined;
}

/**
 * Builds commander's tree: every group as a stub (name and summary, enough for `plinth --help`),
 * and the verbs of the selected group only, so other command modules are never loaded.
 */
export async function buildProgram(io: IO, version: string, argv: string[]): Promise<ProgramState> {
  const program = new Command('plinth');
  const state: ProgramState = { program };
  program
    .description('Command-line client of the Plinth platform API.')
    .version(`plinth ${version}`, '-V, --version', 'Print the installed version')
    .option('--json', 'Print the raw JSON response instead of a table')
    .option('-c, --context <name>', 'Use this saved context instead of the current one')
    .helpCommand('help [command]', 'Show help for a command')
    // Every verb's --help lists the flags it inherits (--json, --context), as gh does.
    .configureHelp({ showGlobalOptions: true })
    .showHelpAfterError('Run `plinth --help` for the list of commands.')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) })
    .addHelpText('after', '\nRun `plinth <command> --help` for the options of a command.\nDocs: README.md, section "Command-line client".');

  const wanted = selectedEntry(argv);
  for (const entry of manifest) {
    const selected = wanted !== undefined && (entry.name === wanted || entry.aliases?.includes(wanted));
    const command = program.command(entry.name).description(entry.summary);
    if (entry.aliases) command.aliases(entry.aliases);
    if (selected) await fill(command, entry, io, version, state, program);
    command.showHelpAfterError(usageOf(command));
  }
  return state;
}

async function fill(command: Command, entry: Entry, io: IO, version: string, state: ProgramState, program: Command) {
  const loaded = await entry.load();
  if ('verbs' in loaded) {
    addGroup(command, loaded, entry.name, io, version, state, program);
  } else {
    addVerb(command, loaded.verb, entry.name, io, version, state, program);
  }
}

function addGroup(command: Command, group: Group, top: string, io: IO, version: string, state: ProgramState, program: Command) {
  for (const item of group.verbs) {
    const child = command.command(item.name);
    if (isGroup(item)) {
      addGroup(child.description(item.summary), item, top, io, version, state, program);
      child.showHelpAfterError(usageOf(child));
    } else addVerb(child, item, top, io, version, state, program);
  }
}

function addVerb(command: Command, verb: Verb, group: string, io: IO, version: string, state: ProgramState, program: Command) {
  command.description(verb.description ? `${verb.summary}\n\n${verb.description}` : verb.summary);
  // The parent's list of commands shows the one line; `--help` of the verb shows the whole text.
  command.summary(verb.summary);
  if (verb.aliases) command.aliases(verb.aliases);
  for (const arg of verb.args ?? []) command.argument(arg);
  for (const option of verb.options ?? []) {
    if (option.choices) {
      // Checked here, before any request, and commander's message lists the allowed values.
      const choice = new Option(option.flags, option.description).choices(option.choices);
      if (option.defaultValue !== undefined) choice.default(option.defaultValue);
      command.addOption(option.required ? choice.makeOptionMandatory() : choice);
    } else if (option.repeatable) {
      command.option(option.flags, option.description, (value: string, previous: string[] = []) => [...previous, value]);
    } else if (option.required) {
      command.requiredOption(option.flags, option.description, option.defaultValue as string | boolean | undefined);
    } else {
      command.option(option.flags, option.description, option.defaultValue as string | boolean | undefined);
    }
  }
  // A verb's own short flag wins over a global one's: `logs -c` is --container, as in kubectl;
  // --context keeps its long form there. Only this run's tree changes.
  for (const own of command.options) {
    const global = program.options.find((option) => option.short !== undefined && option.short === own.short);
    if (global) global.short = undefined;
  }
  if (verb.examples?.length) command.addHelpText('after', `\nExamples:\n${verb.examples.map((e) => `  $ ${e}`).join('\n')}\n`);
  // The usage line is complete only now that the arguments and options are declared.
  command.showHelpAfterError(usageOf(command));
  command.action(async (...params: unknown[]) => {
    const self = params[params.length - 1] as Command;
    // processedArgs holds one entry per declared argument; a variadic one is an array.
    const args = self.processedArgs as string[];
    const factory = new Factory(io, program.opts<GlobalFlags>(), version);
    state.ran = group;
    state.factory = factory;
    state.command = self;
    await verb.run(factory, args, self.opts());
  });
}
