import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { Database } from '../store/schema.js';

/** What an operator command runs with: the settings, the migrated store, and where its output goes. */
export interface CommandContext {
  config: Config;
  db: Kysely<Database>;
  out: (line: string) => void;
}

/** Ends a command with one line on stderr and an exit code: 2 for a usage error, 1 otherwise. */
export class CommandError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2 = 1,
  ) {
    super(message);
  }
}

export const usageError = (message: string) => new CommandError(message, 2);
