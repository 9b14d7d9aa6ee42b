/**
 * The closed list of error codes of the platform API. Each code has one HTTP status; services
 * throw `ApiError`s with a code and a message, and each surface (platform JSON, SCIM, data API)
 * renders them in its own body shape.
 */
export const errorStatus = {
  bad_request: 400,
  validation_failed: 400,
  invalid_json: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  route_not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  misdirected_request: 421,
  precondition_failed: 412,
  payload_too_large: 413,
  unsupported_media_type: 415,
  limit_exceeded: 422,
  too_many_requests: 429,
  internal_error: 500,
  bad_gateway: 502,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;
export const errorCodes = Object.keys(errorStatus) as ErrorCode[];

export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Surface-specific detail, e.g. SCIM's `scimType`. */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.status = errorStatus[code];
  }
}

export const badRequest = (message: string) => new ApiError('bad_request', message);
export const notFound = (message: string) => new ApiError('not_found', message);
export const conflict = (message: string) => new ApiError('conflict', message);
export const forbidden = (message: string) => new ApiError('forbidden', message);
export const unauthenticated = (message: string) => new ApiError('unauthenticated', message);
