import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, errorStatus, type ErrorCode } from './errors.js';
import { pathOf } from './logger.js';
import { describeValidation } from './validation-messages.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Which error renderer answers for the route; `platform` when not set. */
    surface?: Surface;
  }
}

export type Surface = 'platform' | 'scim' | 'data';

/** One renderer per surface: each turns an ApiError into that surface's error body. */
export type ErrorRenderer = (error: ApiError, request: FastifyRequest, reply: FastifyReply) => unknown;

const renderers: Record<Surface, ErrorRenderer> = {
  // A conflict of the data-model store also names the conflicting files (issue 13).
  platform: (error, request) => ({
    error: error.message,
    code: error.code,
    requestId: String(request.id),
    ...(Array.isArray(error.extra.conflicts) ? { conflicts: error.extra.conflicts } : {}),
  }),
  data: (error) => ({ error: error.message }),
  // The SCIM module replaces this with the RFC 7644 body.
  scim: (error) => ({ error: error.message }),
};

export function setErrorRenderer(surface: Surface, renderer: ErrorRenderer) {
  renderers[surface] = renderer;
}

/** Installs the error and not-found handlers: every failure leaves as an ApiError, never a bare 500. */
export function installErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((raw: FastifyError | ApiError, request, reply) => {
    const error = toApiError(raw);
    if (error.status >= 500) request.log.error({ reqId: request.id, err: raw }, 'request failed');
    return send(error, request, reply);
  });

  app.setNotFoundHandler((request, reply) => {
    return send(new ApiError('route_not_found', `No route ${request.method} ${pathOf(request.url)}`), request, reply);
  });
}

function send(error: ApiError, request: FastifyRequest, reply: FastifyReply) {
  const surface = request.routeOptions.config?.surface ?? surfaceOfPath(request.url);
  reply.code(error.status);
  if (error.status === 401 && surface === 'platform') reply.header('www-authenticate', 'Bearer, Api-Key');
  if (typeof error.extra.retryAfterSeconds === 'number') reply.header('retry-after', String(error.extra.retryAfterSeconds));
  return reply.send(renderers[surface](error, request, reply));
}

function surfaceOfPath(url: string): Surface {
  if (url.startsWith('/api/scim/')) return 'scim';
  if (url.includes('/cubejs-api/')) return 'data';
  return 'platform';
}

function toApiError(error: FastifyError | ApiError): ApiError {
  if (error instanceof ApiError) return error;
  if (error.validation) {
    return new ApiError('validation_failed', describeValidation(error.validation, error.validationContext));
  }
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError('invalid_json', `Request body is not valid JSON: ${error.message}`);
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError('payload_too_large', 'Request body is larger than the 1 MiB limit');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError('unsupported_media_type', error.message);
  }
  if (error instanceof SyntaxError) return new ApiError('invalid_json', `Request body is not valid JSON: ${error.message}`);
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    const code = (Object.keys(errorStatus) as ErrorCode[]).find((c) => errorStatus[c] === status) ?? 'bad_request';
    return new ApiError(code, error.message);
  }
  return new ApiError('internal_error', 'Internal server error');
}
