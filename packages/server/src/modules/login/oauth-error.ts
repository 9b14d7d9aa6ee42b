/**
 * Errors of the token endpoint, in the shape of RFC 6749 section 5.2 and RFC 8628 section 3.5:
 * `{"error": "<code>", "error_description": "..."}` with status 400. Clients branch on `error`.
 */
export type OAuthErrorCode =
  | 'authorization_pending'
  | 'slow_down'
  | 'access_denied'
  | 'expired_token'
  | 'invalid_grant'
  | 'invalid_request'
  | 'unsupported_grant_type';

export class OAuthError extends Error {
  readonly status = 400;
  constructor(
    readonly code: OAuthErrorCode,
    readonly description: string,
  ) {
    super(description);
  }

  toBody() {
    return { error: this.code, error_description: this.description };
  }
}
