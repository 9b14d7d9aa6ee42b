import { AuthError, CliError, HttpError, LOGIN_HINT, NetworkError, UsageError } from './errors.js';

/** Exit codes of `plinth`, decided here and nowhere else. */
export const EXIT = {
  ok: 0,
  /** The command failed: the server refused it (4xx or 5xx) or something else went wrong. */
  failure: 1,
  /** Wrong use: unknown command or flag, missing or invalid argument. */
  usage: 2,
  /** Not signed in, or the credential was refused (HTTP 401). */
  auth: 4,
  /** The server could not be reached. */
  network: 5,
} as const;

export function exitCodeOf(error: unknown): number {
  const commander = (error as { code?: unknown })?.code;
  if (typeof commander === 'string' && commander.startsWith('commander.')) {
    // --help, `help <command>` and --version end normally (commander's exitCode 0); help shown
    // because a group was given no verb, and every other commander error, is a usage error.
    return (error as { exitCode?: unknown }).exitCode === 0 ? EXIT.ok : EXIT.usage;
  }
  if (error instanceof UsageError) return EXIT.usage;
  if (error instanceof AuthError) return EXIT.auth;
  if (error instanceof HttpError) return error.status === 401 ? EXIT.auth : EXIT.failure;
  if (error instanceof NetworkError) return EXIT.network;
  return EXIT.failure;
}

/** The line (and hint) printed on stderr for an error. */
export function describeError(error: unknown): string {
  if (error instanceof CliError) {
    const hint = error.hint ?? (error instanceof HttpError && error.status === 401 ? LOGIN_HINT : undefined);
    const request = error instanceof HttpError && error.requestId ? ` [request ${error.requestId}]` : '';
    return `error: ${error.message}${request}\n${hint ? `hint: ${hint}\n` : ''}`;
  }
  const message = error instanceof Error ? error.message : String(error);
  return `error: ${message}\n`;
}
