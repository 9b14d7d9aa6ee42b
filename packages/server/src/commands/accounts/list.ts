import { AccountService } from '../../modules/accounts/service.js';
import { usageError, type CommandContext } from '../command.js';

/** `plinth-server accounts list`: every account, with whether it is served and since when. */
export async function listAccounts(args: readonly string[], { config, db, out }: CommandContext): Promise<void> {
  if (args.length > 0) throw usageError('usage: plinth-server accounts list');
  const rows = (await new AccountService(db).list()).map((account) => [
    account.name,
    account.disabled_at ? `disabled since ${account.disabled_at.toISOString()}` : 'active',
    account.created_at.toISOString(),
    account.name === config.defaultTenant ? 'default (PLINTH_TENANT)' : '',
  ]);
  const table = [['NAME', 'STATUS', 'CREATED', ''], ...rows];
  const widths = table[0]!.map((_, column) => Math.max(...table.map((row) => row[column]!.length)));
  for (const row of table)
    out(
      row
        .map((cell, column) => cell.padEnd(widths[column]!))
        .join('  ')
        .trimEnd(),
    );
}
