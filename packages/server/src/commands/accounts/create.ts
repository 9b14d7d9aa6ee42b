import { DEPLOYMENT_HOST_LIKE } from '../../config.js';
import { createAccountWithAdmin, newApiKeySecret } from '../../modules/accounts/provision.js';
import { CommandError, usageError, type CommandContext } from '../command.js';
import { accountNameArgument } from './name.js';

/** `plinth-server accounts create <name>`: the account, its admin user, and an admin API key shown once. */
export async function createAccount(args: readonly string[], { config, db, out }: CommandContext): Promise<void> {
  const name = accountNameArgument('create', args);
  // Refused with or without a base domain today: setting one later must not hide an account behind a deployment.
  if (DEPLOYMENT_HOST_LIKE.test(name)) {
    throw usageError(`account name "${name}" must not end in - and digits: <name>-<id>.<base domain> is a deployment's host`);
  }
  const apiKey = newApiKeySecret();
  if (!(await createAccountWithAdmin(db, name, apiKey))) throw new CommandError(`an account named "${name}" already exists`);
  out(
    config.baseDomain
      ? `Created account "${name}", served at http://${name}.${config.baseDomain}.`
      : `Created account "${name}". Set PLINTH_BASE_DOMAIN to serve it at ${name}.<base domain>; without it every host reaches the default account (PLINTH_TENANT).`,
  );
  out(`Admin API key (shown once): ${apiKey}`);
}
