import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from './config.js';
import type { Store } from './store/store.js';
import type { Services } from './services.js';
import { authPlugin } from './http/auth.js';
import type { ServerLog } from './http/logger.js';
import { tenancyPlugin } from './http/tenancy.js';
import { deploymentHostsPlugin, rewriteDeploymentHost } from './http/deployment-hosts.js';
import { installErrorHandling } from './http/error-handler.js';
import { installValidation } from './http/validation.js';
import { installLazySerializers } from './http/schema-compilers.js';
import { installResponsePolicy } from './http/security-headers.js';
import { moduleTags, openApiPlugin } from './http/openapi.js';
import { ResponseCacheListener } from './http/response-cache-listener.js';
import { newRequestId } from './pipeline/context.js';
import { RequestPipeline } from './pipeline/pipeline.js';
import { Deleted, PlatformError } from './http/common-schemas.js';
import { PageInfo } from './http/pagination.js';
import { loadModules } from './modules/index.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    store: Store;
    services: Services;
    /** `METHOD /path/{param}` of every route, as registered; the spec test compares it with the document. */
    registeredRoutes: string[];
    /** Tenancy, admission, response policy and response cache, independent of Fastify (pipeline/). */
    pipeline: RequestPipeline;
    /** The server's response cache in front of Fastify (http/response-cache-listener.ts); only on a listening server, never with inject. */
    responseCacheListener: ResponseCacheListener;
  }
}

export type PlinthApp = FastifyInstance;

export interface AppOptions {
  config: Config;
  store: Store;
  services: Services;
  /** The server passes its log (http/logger.ts); tests leave it out and log nothing. */
  log?: ServerLog | false;
}

export const BODY_LIMIT = 1024 * 1024;

export async function buildApp({ config, store, services, log }: AppOptions): Promise<PlinthApp> {
  const pipeline = new RequestPipeline(
    {
      cachedHost: (host) => services.accounts.cachedHost(host),
      resolveHost: (host) => services.accounts.resolveHost(host, config.baseDomain, config.defaultTenant, config.publicUrl),
      accountOfDeployment: async (deploymentId) => {
        const accountId = await services.deployments.accountOf(deploymentId);
        return accountId === undefined ? undefined : services.accounts.findById(accountId);
      },
    },
    config.baseDomain,
    log,
  );
  const listener = new ResponseCacheListener(pipeline);
  const app = Fastify({
    serverFactory: listener.serverFactory,
    ...(log ? { loggerInstance: log.logger as FastifyBaseLogger } : { logger: false }),
    bodyLimit: BODY_LIMIT,
    // A path parameter may be an externalId of 255 characters (400 before trimming), percent-encoded
    // up to nine bytes each; the default of 100 answered 414 for ids the API had just stored.
    routerOptions: { maxParamLength: 4096 },
    genReqId: newRequestId,
    requestIdHeader: false,
    // One line per request (http/security-headers.ts) instead of Fastify's two: the same facts at half the cost.
    logController: new LogController({ disableRequestLogging: true }),
    // No child logger per request: building one cost more than the access line itself. The lines
    // that concern a request name it with `reqId` (below, and in http/error-handler.ts).
    childLoggerFactory: (logger) => logger,
    return503OnClosing: true,
    // HEAD twins of GET routes would be operations missing from the spec.
    exposeHeadRoutes: false,
    forceCloseConnections: 'idle',
    // Behind a load balancer, per-address rate limits must count the client, not the balancer.
    // A hop count works at run time although Fastify's types leave numbers out.
    trustProxy: config.trustProxy as boolean | string[],
    // `<slug>-<id>.<PLINTH_BASE_DOMAIN>` is served as `/d/<id>/…` (the deployment's own host).
    rewriteUrl: rewriteDeploymentHost(pipeline),
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.decorate('config', config);
  app.decorate('store', store);
  app.decorate('services', services);
  app.decorate('registeredRoutes', [] as string[]);
  app.decorate('pipeline', pipeline);
  app.decorate('responseCacheListener', listener);
  app.addHook('preClose', (done) => {
    listener.closing = true;
    pipeline.responses.clear();
    done();
  });
  app.addHook('onRoute', (route) => {
    // Pages hidden from the spec (modules/embed-pages) are no operations of the API.
    if ((route.schema as { hide?: boolean } | undefined)?.hide) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const path = route.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    for (const method of methods) app.registeredRoutes.push(`${method} ${path}`);
  });
  installResponsePolicy(app, pipeline, !!log);
  // SCIM clients send application/scim+json; it is JSON and parsed as such.
  app.addContentTypeParser('application/scim+json', { parseAs: 'string' }, app.getDefaultJsonParser('error', 'error'));
  app.removeContentTypeParser('text/plain');

  installValidation(app);
  installLazySerializers(app);
  installErrorHandling(app);
  app.addSchema(PlatformError);
  app.addSchema(Deleted);
  app.addSchema(PageInfo);
  const modules = await loadModules();
  await app.register(openApiPlugin, { config, tags: moduleTags(modules) });
  await app.register(deploymentHostsPlugin, { pipeline });
  await app.register(tenancyPlugin, { pipeline });
  await app.register(authPlugin, { pipeline });

  for (const module of modules) {
    for (const schema of module.schemas ?? []) app.addSchema(schema);
  }
  for (const module of modules) {
    if (module.routes) await app.register(module.routes);
    module.onReady?.(app);
  }
  return app;
}
