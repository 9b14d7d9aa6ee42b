/** The error codes of RFC 6749 section 5.2 the exchange answers, and one for an unreachable issuer. */
export type ExchangeErrorCode = 'invalid_request' | 'unsupported_grant_type' | 'invalid_grant' | 'temporarily_unavailable';

/**
 * A refused token exchange, answered in OAuth's shape `{error, error_description}`: 400, 502 when
 * the issuer's keys could not be fetched (not the caller's fault; retrying may work), or 429 with
 * Retry-After when the caller's address failed too often.
 */
export class ExchangeError extends Error {
  readonly status: 400 | 429 | 502;
  constructor(
    readonly code: ExchangeErrorCode,
    readonly description: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(description);
    this.status = retryAfterSeconds !== undefined ? 429 : code === 'temporarily_unavailable' ? 502 : 400;
  }

  toBody() {
    return { error: this.code, error_description: this.description };
  }
}
