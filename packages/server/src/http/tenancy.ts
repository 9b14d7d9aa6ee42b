import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError, forbidden, notFound } from './errors.js';
import type { AccountRow } from '../store/schema.js';
import { UNKNOWN_HOST, type HostLookup } from '../modules/accounts/service.js';

declare module 'fastify' {
  interface FastifyRequest {
    account: AccountRow;
  }
}

/**
 * Finds the request's account from its Host before anything else runs (DESIGN.md, Tenancy). Routes
 * that need no account (health checks, the spec) answer on any host.
 */
export const tenancyPlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('account', null as unknown as AccountRow);
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.routeOptions.config.auth === 'public' && !request.routeOptions.config.needsAccount) return done();
    // A deployment host's account was found from its deployment (http/deployment-hosts.ts).
    if (request.account) return done();
    const host = request.headers.host ?? '';
    const found = (account: HostLookup) => {
      if (account === UNKNOWN_HOST) {
        return done(
          new ApiError('misdirected_request', `Unknown host "${host}": accounts are served at <account>.${app.config.baseDomain}`),
        );
      }
      if (!account) return done(notFound(`No account is served at ${host}`));
      if (account.disabled_at) return done(forbidden(`The account "${account.name}" has been disabled by an operator`));
      request.account = account;
      done();
    };
    // Almost every request finds its host cached; only a miss pays for a promise.
    const cached = app.services.accounts.cachedHost(host);
    if (cached !== undefined) return found(cached);
    app.services.accounts.resolveHost(host, app.config.baseDomain, app.config.defaultTenant, app.config.publicUrl).then(found, done);
  });
});

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A public route that still needs the account of its Host (e.g. the device-flow page). */
    needsAccount?: boolean;
  }
}
