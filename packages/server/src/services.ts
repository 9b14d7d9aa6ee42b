import type { Config } from './config.js';
import { EgressPolicy } from './egress/policy.js';
import { SecretBox } from './lib/secrets.js';
import type { Store } from './store/store.js';
import { loadMasterKey } from './modules/accounts/master-key.js';
import { loadModules } from './modules/index.js';
import type { PlinthModule, ServiceContext, ServiceFactory, Services } from './modules/module.js';
import { keepFresh } from './store/account-caches.js';

/**
 * Every domain service, by the name its module declares it under (PlinthModule.services), built
 * once per process. Routes reach them through `app.services`; services reach each other only
 * through this object, never each other's tables.
 */
export type { Services };

/** Builds every module's services, then keeps every module's caches fresh before the first request can fill them. */
export async function createServices(store: Store, config: Config): Promise<Services> {
  const secrets = new SecretBox(await loadMasterKey(store.db, config));
  const egress = new EgressPolicy(config.egress);
  const modules = await loadModules();
  const services = assembleServices(modules, { store, db: store.db, config, secrets, egress });
  await keepCachesFresh(store, modules, services);
  return services;
}

/**
 * Calls every module's service factories once each. A factory reads the services it needs from
 * `ctx.services`, which builds them first; a cycle fails here, at start-up.
 */
export function assembleServices(from: readonly PlinthModule[], base: Omit<ServiceContext, 'services'>): Services {
  const factories = new Map<string, ServiceFactory>();
  for (const module of from) {
    for (const [name, factory] of Object.entries(module.services ?? {}) as [string, ServiceFactory][]) {
      if (factories.has(name)) throw new Error(`Two modules declare the service "${name}"`);
      factories.set(name, factory);
    }
  }
  const building: string[] = [];
  // Each service is a getter until it is built, then a plain property: a factory that keeps
  // `ctx.services` (as embed does) reads plain properties on the request path.
  const services = {} as Record<string, unknown>;
  const ctx: ServiceContext = { ...base, services: services as unknown as Services };
  for (const [name, factory] of factories) {
    Object.defineProperty(services, name, {
      enumerable: true,
      configurable: true,
      get() {
        if (building.includes(name)) throw new Error(`Services depend on each other in a cycle: ${[...building, name].join(' -> ')}`);
        building.push(name);
        try {
          const value = factory(ctx);
          Object.defineProperty(services, name, { value, enumerable: true, writable: true, configurable: true });
          return value;
        } finally {
          building.pop();
        }
      },
    });
  }
  for (const name of factories.keys()) void services[name];
  return ctx.services;
}

async function keepCachesFresh(store: Store, modules: readonly PlinthModule[], services: Services): Promise<void> {
  for (const module of modules) {
    for (const { declaration, cache } of module.caches ?? []) await keepFresh(store, declaration, cache(services));
  }
}
