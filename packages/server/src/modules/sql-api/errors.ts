import { QueryError, SqlTranslationError } from '@plinth/semantic';
import { ApiError, type ErrorCode } from '../../http/errors.js';
import { ProtocolViolation, type WireError } from './wire.js';

/** A failure of the SQL API itself with its SQLSTATE (a cancelled statement, an unknown portal, ...). */
export class SqlFailure extends Error {
  constructor(
    readonly sqlState: string,
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}

/**
 * The SQLSTATE of the data API's refusals, as PostgreSQL would class them: a token that may not
 * read is an insufficient privilege, a query the data meets badly a data exception, a deployment
 * without a build an object not in a ready state.
 */
const API_STATES: Partial<Record<ErrorCode, string>> = {
  forbidden: '42501',
  unauthenticated: '28000',
  not_found: '42704',
  bad_request: '22000',
};

/** What an ErrorResponse says for any failure of a statement; never the server's internals. */
export function wireErrorOf(error: unknown): WireError & { raw?: Buffer } {
  if (error instanceof SqlFailure) return { code: error.sqlState, message: error.message, ...(error.hint ? { hint: error.hint } : {}) };
  if (error instanceof SqlTranslationError) return { code: error.sqlState, message: error.message };
  if (error instanceof ApiError) {
    const message = error.message;
    if (/^No successful build/.test(message)) return { code: '55000', message };
    return { code: API_STATES[error.code] ?? 'XX000', message };
  }
  if (error instanceof QueryError) return { code: '22000', message: error.message };
  if (error instanceof ProtocolViolation) return { code: '08P01', message: `protocol violation: ${error.message}`, severity: 'FATAL' };
  return { code: 'XX000', message: 'internal error: the SQL API could not answer this statement' };
}

export const cancelled = () => new SqlFailure('57014', 'canceling statement due to user request');

/** The promise, or the cancellation's error as soon as the signal aborts (a warehouse may not heed it at once). */
export function untilAborted<T>(promise: Promise<T> | T, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(cancelled());
  let onAbort: () => void = () => undefined;
  const stopped = new Promise<never>((_, reject) => {
    onAbort = () => reject(cancelled());
    signal.addEventListener('abort', onAbort, { once: true });
  });
  const running = Promise.resolve(promise);
  running.catch(() => undefined);
  return Promise.race([running, stopped]).finally(() => signal.removeEventListener('abort', onAbort));
}
