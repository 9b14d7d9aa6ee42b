import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from './errors.js';
import type { RequestPipeline } from '../pipeline/pipeline.js';

/** Set on the raw request by the rewrite, read by the hook: the deployment the Host named. */
const DEPLOYMENT_HOST = Symbol('deploymentHost');
type Tagged = IncomingMessage & { [DEPLOYMENT_HOST]?: number };

/**
 * Fastify's `rewriteUrl`: a deployment host (pipeline/tenancy.ts deploymentOfHost) is served as
 * `/d/<id>/…`, so its data API, dev-mode URLs and spec are the path-based routes, with one set of
 * schemas, tests and spec entries. Synchronous, so the Host alone decides, before any lookup.
 */
export function rewriteDeploymentHost(pipeline: RequestPipeline) {
  return (request: IncomingMessage): string => {
    const url = request.url ?? '/';
    const id = pipeline.tenancy.deploymentOf(request.headers.host);
    if (id === undefined) return url;
    (request as Tagged)[DEPLOYMENT_HOST] = id;
    return `/d/${id}${url.startsWith('/') ? url : `/${url}`}`;
  };
}

/**
 * A deployment host belongs to its deployment's account (pipeline/tenancy.ts ofDeployment). A
 * refusal is answered in the data API's shape, `{error}`, which is what a Cube client reads.
 */
export const deploymentHostsPlugin = fp(async (app: FastifyInstance, { pipeline }: { pipeline: RequestPipeline }) => {
  // Callback-style: every request passes here, and only a deployment host pays for a promise.
  app.addHook('onRequest', (request, reply, done) => {
    const id = (request.raw as Tagged)[DEPLOYMENT_HOST];
    if (id === undefined) return done();
    pipeline.tenancy.ofDeployment(id, request.headers.host ?? '').then((decided) => {
      if (decided instanceof ApiError) return reply.code(decided.status).send({ error: decided.message });
      request.account = decided;
      done();
    }, done);
  });
});
