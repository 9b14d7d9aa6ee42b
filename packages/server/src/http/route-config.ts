import { createRequire } from 'node:module';
import type { FastifyContextConfig, FastifyRequest } from 'fastify';

/**
 * Where Fastify keeps a request's route context (its `config` among it). Fastify's own symbol,
 * from the same module instance Fastify uses; undefined if a later Fastify no longer has it.
 */
const ROUTE_CONTEXT: symbol | undefined = (() => {
  try {
    const symbols = createRequire(import.meta.url)('fastify/lib/symbols.js') as { kRouteContext?: unknown };
    return typeof symbols.kRouteContext === 'symbol' ? symbols.kRouteContext : undefined;
  } catch {
    return undefined;
  }
})();

type WithContext = FastifyRequest & Record<symbol, { config?: FastifyContextConfig } | undefined>;

/**
 * The config of the route a request is routed to: what `request.routeOptions.config` gives,
 * without building `routeOptions`, which Fastify does afresh (twelve fields and a constraint
 * lookup) on every read; the hooks read the config several times on every request.
 */
export function routeConfig(request: FastifyRequest): FastifyContextConfig {
  const config = ROUTE_CONTEXT === undefined ? undefined : (request as WithContext)[ROUTE_CONTEXT]?.config;
  return config ?? request.routeOptions.config;
}
