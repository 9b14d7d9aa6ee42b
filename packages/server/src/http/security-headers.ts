import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The response hands out a secret (a new key or token, a session id, a link or page holding
     * one): no cache, shared or private, may keep it. Declared on the route, applied in one place.
     */
    carriesSecret?: boolean;
  }
  interface FastifyInstance {
    /** operationIds of the routes that declare `carriesSecret`, for the test that lists them. */
    secretOperations: string[];
  }
}

/**
 * Headers every response carries: `nosniff`, so a browser never runs a body as something other
 * than its declared type, and `no-store` on the routes that declare `carriesSecret`. Set when the
 * request arrives, so errors and 404s carry them too.
 */
export function installSecurityHeaders(app: FastifyInstance): void {
  app.decorate('secretOperations', [] as string[]);
  app.addHook('onRoute', (route) => {
    if (route.config?.carriesSecret) app.secretOperations.push(String(route.schema?.operationId ?? `${route.method} ${route.url}`));
  });
  // One hook for every header set on arrival, the request id included: each hook on every request costs.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    reply.header('x-content-type-options', 'nosniff');
    if (request.routeOptions.config?.carriesSecret) reply.header('cache-control', 'no-store');
    done();
  });
}
