import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from './errors.js';
import type { RequestPipeline } from '../pipeline/pipeline.js';
import type { TenantDecision } from '../pipeline/tenancy.js';
import type { AccountRow } from '../store/schema.js';
import { routeConfig } from './route-config.js';

declare module 'fastify' {
  interface FastifyRequest {
    account: AccountRow;
  }
}

/**
 * Fastify's side of tenancy (pipeline/tenancy.ts): the request's account, from its Host, before
 * anything else runs. Routes that need no account (health checks, the spec) answer on any host.
 */
export const tenancyPlugin = fp(async (app: FastifyInstance, { pipeline }: { pipeline: RequestPipeline }) => {
  app.decorateRequest('account', null as unknown as AccountRow);
  app.addHook('onRequest', (request, _reply, done) => {
    const config = routeConfig(request);
    if (config.auth === 'public' && !config.needsAccount) return done();
    // A deployment host's account was found from its deployment (http/deployment-hosts.ts).
    if (request.account) return done();
    const found = (decided: TenantDecision) => {
      if (decided instanceof ApiError) return done(decided);
      request.account = decided;
      done();
    };
    // Almost every request finds its host at hand; only a miss pays for a promise.
    const decided = pipeline.tenancy.ofHost(request.headers.host ?? '');
    if (decided instanceof Promise) decided.then(found, done);
    else found(decided);
  });
});

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A public route that still needs the account of its Host (e.g. the device-flow page). */
    needsAccount?: boolean;
  }
}
