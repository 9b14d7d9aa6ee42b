import { usageError, type CommandContext } from '../command.js';
import { createAccount } from './create.js';
import { setAccountDisabled } from './disable.js';
import { listAccounts } from './list.js';

type Verb = (args: readonly string[], context: CommandContext) => Promise<void>;

const verbs: Record<string, Verb> = {
  create: createAccount,
  list: listAccounts,
  disable: setAccountDisabled(true),
  enable: setAccountDisabled(false),
};

export const ACCOUNTS_USAGE = 'usage: plinth-server accounts create|list|disable|enable [<name>]';

/** The verb named by the first argument, or a usage error before the store is opened. */
export function accountsVerb(verb: string | undefined): Verb {
  const run = verb !== undefined && Object.hasOwn(verbs, verb) ? verbs[verb] : undefined;
  if (!run) throw usageError(verb === undefined ? ACCOUNTS_USAGE : `unknown command "accounts ${verb}"; ${ACCOUNTS_USAGE}`);
  return run;
}
