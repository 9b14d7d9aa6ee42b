import { AccountService } from '../../modules/accounts/service.js';
import { CommandError, type CommandContext } from '../command.js';
import { accountNameArgument } from './name.js';

/**
 * `plinth-server accounts disable|enable <name>`. Disabling refuses every request to the account
 * (403) on every server of the store and keeps all its data, so `enable` undoes it exactly.
 */
export function setAccountDisabled(disabled: boolean) {
  const verb = disabled ? 'disable' : 'enable';
  return async (args: readonly string[], { db, out }: CommandContext): Promise<void> => {
    const name = accountNameArgument(verb, args);
    const account = await new AccountService(db).setDisabled(name, disabled);
    if (!account) throw new CommandError(`no account is named "${name}"`);
    out(
      disabled
        ? `Disabled account "${name}": every request to it is refused until \`plinth-server accounts enable ${name}\`.`
        : `Enabled account "${name}": it is served again.`,
    );
  };
}
