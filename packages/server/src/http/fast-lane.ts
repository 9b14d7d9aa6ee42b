import { randomUUID } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { FastifyServerFactory } from 'fastify';
import { pathOf, type ServerLog } from './logger.js';

interface ServerSettings {
  http?: http.ServerOptions;
  keepAliveTimeout: number;
  requestTimeout: number;
  connectionTimeout: number;
  maxRequestsPerSocket: number;
}

/**
 * A lane answers a request before Fastify sees it, with bytes it already holds, or declines
 * (undefined) and the request goes Fastify's whole way. A lane answers only what the whole way has
 * answered before for a request identical in every part the answer depends on (the data API's warm
 * loads, modules/data-api/warm-path.ts), so skipping routing, hooks and the reply object changes
 * nothing but the cost: on a warm load those were most of the server's time.
 */
export type FastLane = (request: IncomingMessage) => Buffer | undefined;

/**
 * The lanes of one app, and the HTTP server that tries them first. What every answer carries
 * (the request id, nosniff, the access line) is written here exactly as the whole way writes it
 * (http/security-headers.ts, app.ts), so a client and the log cannot tell the two apart.
 */
export class FastLanes {
  private readonly lanes: FastLane[] = [];
  /** Set when the app starts closing: from then on every request goes the whole way, to its 503. */
  closing = false;
  /** Requests answered by a lane since start (tests and operators can tell the lanes are used). */
  answered = 0;

  constructor(private readonly log: ServerLog | false | undefined) {}

  add(lane: FastLane): void {
    this.lanes.push(lane);
  }

  /** Fastify's `serverFactory`: the server Fastify would build, with the lanes in front of its handler. */
  readonly serverFactory: FastifyServerFactory = (handler, options) => {
    // Fastify has filled in its defaults by now (fastify.js), whatever the type says.
    const settings = options as unknown as ServerSettings;
    const server = http.createServer(settings.http ?? {}, (request, response) => {
      if (this.lanes.length === 0 || this.closing || !this.answer(request, response)) handler(request, response);
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
    let bytes: Buffer | undefined;
    try {
      for (const lane of this.lanes) if ((bytes = lane(request)) !== undefined) break;
    } catch {
      // A throw here is outside Fastify's error handling and would end the process: decline instead.
      return false;
    }
    if (bytes === undefined) return false;
    this.answered += 1;
    const reqId = randomUUID();
    response.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': bytes.length,
      'x-request-id': reqId,
      'x-content-type-options': 'nosniff',
    });
    response.end(bytes);
    if (this.log) {
      this.log.access({
        reqId,
        method: request.method ?? 'GET',
        path: pathOf(request.url ?? '/'),
        status: 200,
        ms: Math.round(performance.now() - started),
      });
    }
    return true;
  }
}
