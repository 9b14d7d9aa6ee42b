/**
 * The errors a command can end with. Each carries what the one line on stderr says; the exit code
 * of each kind is decided in one place, `exitCodeOf` in exit-codes.ts.
 */
export class CliError extends Error {
  constructor(
    message: string,
    /** A second line telling the user what to do next. */
    readonly hint?: string,
  ) {
    super(message);
  }
}

/** Wrong use of a command: bad arguments or flags. The command's usage is printed too. */
export class UsageError extends CliError {}

/** No credentials, or credentials the server refused. */
export class AuthError extends CliError {}

/** The server could not be reached. */
export class NetworkError extends CliError {}

/** The server answered 4xx or 5xx. */
export class HttpError extends CliError {
  constructor(
    readonly status: number,
    message: string,
    readonly body: unknown,
    readonly requestId: string | undefined,
    hint?: string,
  ) {
    super(message, hint);
  }
}

export const LOGIN_HINT = 'Run `plinth login` to sign in, or set PLINTH_API_KEY.';

/** The one line for an error body of any surface: platform `error`, SCIM `detail`, OAuth `error_description`. */
export function messageOf(status: number, body: unknown, text: string): string {
  if (body && typeof body === 'object') {
    const b = body as Record<string, unknown>;
    const message = b.error_description ?? b.detail ?? b.error ?? b.message;
    if (typeof message === 'string' && message) return `${message} (HTTP ${status})`;
  }
  const snippet = text.trim().split('\n')[0]?.slice(0, 200);
  return snippet ? `HTTP ${status}: ${snippet}` : `HTTP ${status}`;
}
