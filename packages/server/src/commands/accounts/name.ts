import { TENANT_NAME } from '../../config.js';
import { usageError } from '../command.js';

/** The one argument of create, disable and enable: an account name, as PLINTH_TENANT takes it. */
export function accountNameArgument(verb: string, args: readonly string[]): string {
  if (args.length !== 1) throw usageError(`usage: plinth-server accounts ${verb} <name>`);
  const name = args[0]!;
  if (!TENANT_NAME.test(name)) {
    throw usageError(`account name "${name}" must be 3 to 63 characters of a-z, 0-9 and -, starting with a letter`);
  }
  return name;
}
