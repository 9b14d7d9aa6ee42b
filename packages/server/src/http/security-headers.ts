import type { FastifyInstance } from 'fastify';
import { API_RESPONSE, type ResponsePolicy } from '../pipeline/context.js';
import type { RequestPipeline } from '../pipeline/pipeline.js';
import { policyHeaders } from '../pipeline/response-policy.js';
import { routeConfig } from './route-config.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The response hands out a secret (a new key or token, a session id, a link or page holding
     * one): no cache, shared or private, may keep it. Declared on the route, applied in one place.
     */
    carriesSecret?: boolean;
    /** The route answers an HTML page of ours (pipeline/response-policy.ts PAGE_CSP). */
    page?: boolean;
    /** The route answers an embed page (pipeline/response-policy.ts embedPageCsp): framable by the account's origins. */
    embedPage?: boolean;
    /** Compiled from the route's declarations when it is added; not for routes to set. */
    responsePolicy?: ResponsePolicy;
  }
  interface FastifyInstance {
    /** operationIds of the routes that declare `carriesSecret`, for the test that lists them. */
    secretOperations: string[];
  }
}

/**
 * Fastify's side of the response policy (pipeline/response-policy.ts): each route's policy is
 * read from its declarations once, its headers set when a request arrives (so errors and 404s
 * carry them too) and its access line written when the response is done.
 */
export function installResponsePolicy(app: FastifyInstance, pipeline: RequestPipeline, logging: boolean): void {
  app.decorate('secretOperations', [] as string[]);
  app.addHook('onRoute', (route) => {
    const config = route.config ?? {};
    if (config.carriesSecret) app.secretOperations.push(String(route.schema?.operationId ?? `${route.method} ${route.url}`));
    const policy: ResponsePolicy = {
      carriesSecret: config.carriesSecret,
      page: config.page,
      embedPage: config.embedPage,
      accessLogLevel: config.accessLogLevel,
    };
    const special = policy.carriesSecret || policy.page || policy.embedPage || policy.accessLogLevel;
    route.config = { ...config, responsePolicy: special ? policy : API_RESPONSE };
  });
  // Callback-style hooks: on every request, a promise per hook is measurable (bench/platform.ts).
  app.addHook('onRequest', (request, reply, done) => {
    // The same headers as pipeline.headers() gives, set without building their object on every request.
    reply.header('x-request-id', request.id).headers(policyHeaders(routeConfig(request).responsePolicy ?? API_RESPONSE));
    done();
  });
  if (!logging) return;
  app.addHook('onResponse', (request, reply, done) => {
    const policy = routeConfig(request).responsePolicy ?? API_RESPONSE;
    pipeline.finished(policy, request.id, request.method, request.url, reply.statusCode, reply.elapsedTime);
    done();
  });
}
