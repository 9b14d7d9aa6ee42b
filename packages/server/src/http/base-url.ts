import type { FastifyRequest } from 'fastify';

/** `{base_url}` of the request's account, as the caller addressed it (scheme and Host). */
export function baseUrlOf(request: FastifyRequest): string {
  const host = request.headers.host ?? `${request.server.config.host}:${request.server.config.port}`;
  return `${request.protocol}://${host}`;
}
