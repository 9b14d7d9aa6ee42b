import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { notFound } from './errors.js';
import type { AccountRow } from '../store/schema.js';

declare module 'fastify' {
  interface FastifyRequest {
    account: AccountRow;
  }
}

/** Finds the request's account from its Host before anything else runs (DESIGN.md, Tenancy). */
export const tenancyPlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('account', null as unknown as AccountRow);
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config.auth === 'public' && !request.routeOptions.config.needsAccount) return;
    const host = request.headers.host ?? '';
    const account = await app.services.accounts.resolveHost(host, app.config.baseDomain, app.config.defaultTenant);
    if (!account) throw notFound(`No account is served at ${host}`);
    request.account = account;
  });
});

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A public route that still needs the account of its Host (e.g. the device-flow page). */
    needsAccount?: boolean;
  }
}
