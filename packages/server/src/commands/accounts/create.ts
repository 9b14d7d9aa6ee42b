import { createAccountWithAdmin, newApiKeySecret } from '../../modules/accounts/provision.js';
import { CommandError, type CommandContext } from '../command.js';
import { accountNameArgument } from './name.js';

/** `plinth-server accounts create <name>`: the account, its admin user, and an admin API key shown once. */
export async function createAccount(args: readonly string[], { config, db, out }: CommandContext): Promise<void> {
  const name = accountNameArgument('create', args);
  const apiKey = newApiKeySecret();
  if (!(await createAccountWithAdmin(db, name, apiKey))) throw new CommandError(`an account named "${name}" already exists`);
  out(
    config.baseDomain
      ? `Created account "${name}", served at http://${name}.${config.baseDomain}.`
      : `Created account "${name}". Set PLINTH_BASE_DOMAIN to serve it at ${name}.<base domain>; without it every host reaches the default account (PLINTH_TENANT).`,
  );
  out(`Admin API key (shown once): ${apiKey}`);
}
