import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { FastifyRequest, FastifyServerFactory, onRequestHookHandler } from 'fastify';
import { parseAuthorization } from './credential-header.js';
import type { Principal } from './principal.js';
import { routeConfig } from './route-config.js';
import { API_RESPONSE, newRequestId } from '../pipeline/context.js';
import type { RequestPipeline } from '../pipeline/pipeline.js';

interface ServerSettings {
  http?: http.ServerOptions;
  keepAliveTimeout: number;
  requestTimeout: number;
  connectionTimeout: number;
  maxRequestsPerSocket: number;
}

/**
 * The HTTP server Fastify runs on, with the pipeline's response cache (pipeline/response-cache.ts)
 * asked first: a request it holds an answer for is answered here, before Fastify routes it, since
 * on such a request routing, hooks and the reply object were most of the server's time. The
 * answer's headers and access line come from the same functions Fastify's hooks call
 * (http/security-headers.ts), so a client and the log cannot tell the two ways apart.
 */
export class ResponseCacheListener {
  /** Set when the app starts closing: from then on every request goes Fastify's way, to its 503. */
  closing = false;
  /** Requests answered here since start (tests and operators can tell the cache is used). */
  answered = 0;

  constructor(private readonly pipeline: RequestPipeline) {}

  /** Fastify's `serverFactory`: the server Fastify would build, with the response cache in front of its handler. */
  readonly serverFactory: FastifyServerFactory = (handler, options) => {
    // Fastify has filled in its defaults by now (fastify.js), whatever the type says.
    const settings = options as unknown as ServerSettings;
    const server = http.createServer(settings.http ?? {}, (request, response) => {
      if (this.closing || !this.answer(request, response)) handler(request, response);
    });
    // As Fastify sets them on a server it builds itself (fastify/lib/server.js).
    server.keepAliveTimeout = settings.keepAliveTimeout;
    server.requestTimeout = settings.requestTimeout;
    server.setTimeout(settings.connectionTimeout);
    if (settings.maxRequestsPerSocket > 0) server.maxRequestsPerSocket = settings.maxRequestsPerSocket;
    return server;
  };

  private answer(request: IncomingMessage, response: ServerResponse): boolean {
    const started = performance.now();
    const { method, url, headers } = request;
    let cached;
    try {
      cached = this.pipeline.responses.answer({ method, url, host: headers.host, authorization: headers.authorization });
    } catch {
      // A throw here is outside Fastify's error handling and would end the process: go Fastify's way instead.
      return false;
    }
    if (cached === undefined) return false;
    this.answered += 1;
    const requestId = newRequestId();
    const { policy, bytes } = cached;
    response.writeHead(200, {
      ...this.pipeline.headers(policy, requestId),
      'content-type': cached.contentType,
      'content-length': bytes.length,
    });
    response.end(bytes);
    this.pipeline.finished(policy, requestId, method ?? 'GET', url ?? '/', 200, performance.now() - started);
    return true;
  }
}

/**
 * The same stage inside Fastify, as a route's onRequest hook: for what the listener leaves to
 * Fastify (a deployment host, whose URL Fastify rewrites; `inject` in tests, which has no
 * listener). Fastify's hooks have decided the tenant and set the policy's headers by then.
 */
export function responseCacheHook(pipeline: RequestPipeline): onRequestHookHandler {
  return (request, reply, done) => {
    const { headers } = request;
    const cached = pipeline.responses.answer(
      { method: request.method, url: request.url, host: headers.host, authorization: headers.authorization },
      request.account ?? undefined,
    );
    if (cached === undefined) return done();
    void reply.type(cached.contentType).send(cached.bytes);
  };
}

/**
 * After a route answered a `GET` in full: its answer is remembered in the response cache, for
 * identical requests admitted by the same rule, while `current()` holds. The route decides which
 * answers may be (only credentials its verifier remembers: a hit must verify without a promise).
 */
export function rememberResponse(
  pipeline: RequestPipeline,
  request: FastifyRequest,
  principal: Principal,
  answer: { contentType: string; bytes: Buffer; current: () => boolean },
): void {
  const { headers } = request;
  const { auth, authCheck, responsePolicy } = routeConfig(request);
  if (headers.host === undefined || auth === undefined || auth === 'public' || !authCheck || !request.account) return;
  pipeline.responses.remember(
    { method: request.method, url: request.url, host: headers.host, authorization: headers.authorization },
    {
      tenantId: request.account.id,
      host: headers.host,
      principal,
      admission: {
        presented: parseAuthorization(headers.authorization),
        kinds: auth.kinds,
        check: authCheck,
        input: { params: request.params },
      },
      policy: responsePolicy ?? API_RESPONSE,
      ...answer,
    },
  );
}
