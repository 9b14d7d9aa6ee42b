import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.js';
import type { AccountRow } from '../store/schema.js';

/** `<id>` or `<slug>-<id>`: the id (a positive 32-bit integer) decides, whatever the slug says. */
const LABEL = /^(?:[a-z0-9-]*-)?([1-9][0-9]{0,9})$/;
const MAX_ID = 2_147_483_647;
/** Deployments move between accounts never and are deleted rarely: a host's account is kept a while. */
const CACHE_MS = 30_000;

/** Set on the raw request by the rewrite, read by the hook: the deployment the Host named. */
const DEPLOYMENT_HOST = Symbol('deploymentHost');
type Tagged = IncomingMessage & { [DEPLOYMENT_HOST]?: number };

/**
 * The deployment a Host names, `<slug>-<id>.<PLINTH_BASE_DOMAIN>`; undefined for any other host
 * (account hosts included). A label of that form is a deployment's even when an account bears the
 * same name: the rewrite must decide before any lookup (Fastify's rewriteUrl is synchronous).
 */
export function deploymentOfHost(baseDomain: string | undefined, host: string | undefined): number | undefined {
  if (!baseDomain || !host) return undefined;
  const hostname = host.toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
  const base = baseDomain.replace(/:\d+$/, '');
  if (!hostname.endsWith(`.${base}`)) return undefined;
  const match = LABEL.exec(hostname.slice(0, -(base.length + 1)));
  const id = match ? Number(match[1]) : NaN;
  return id <= MAX_ID ? id : undefined;
}

/**
 * Fastify's `rewriteUrl`: a deployment host is served as `/d/<id>/…`, so its data API, dev-mode
 * URLs and spec are the path-based routes, with one set of schemas, tests and spec entries.
 */
export function rewriteDeploymentHost(config: Pick<Config, 'baseDomain'>) {
  return (request: IncomingMessage): string => {
    const url = request.url ?? '/';
    const id = deploymentOfHost(config.baseDomain, request.headers.host);
    if (id === undefined) return url;
    (request as Tagged)[DEPLOYMENT_HOST] = id;
    return `/d/${id}${url.startsWith('/') ? url : `/${url}`}`;
  };
}

/**
 * A deployment host belongs to its deployment's account (tenancy.ts would look for an account of
 * that name). A label naming no deployment is a 404 in the data API's shape, `{error}`, which is
 * what a Cube client reads.
 */
export const deploymentHostsPlugin = fp(async (app: FastifyInstance) => {
  const cache = new Map<number, { account: AccountRow | undefined; at: number }>();
  const accountOf = async (id: number): Promise<AccountRow | undefined> => {
    const cached = cache.get(id);
    if (cached && Date.now() - cached.at < CACHE_MS) return cached.account;
    const accountId = await app.services.deployments.accountOf(id);
    const account = accountId === undefined ? undefined : await app.services.accounts.findById(accountId);
    if (cache.size > 10_000) cache.clear();
    cache.set(id, { account, at: Date.now() });
    return account;
  };

  // Callback-style: every request passes here, and only a deployment host pays for a promise.
  app.addHook('onRequest', (request, reply, done) => {
    const id = (request.raw as Tagged)[DEPLOYMENT_HOST];
    if (id === undefined) return done();
    accountOf(id).then((account) => {
      if (!account) return reply.code(404).send({ error: `No deployment is served at ${request.headers.host ?? ''}` });
      if (account.disabled_at) return reply.code(403).send({ error: `The account "${account.name}" has been disabled by an operator` });
      request.account = account;
      done();
    }, done);
  });
});
