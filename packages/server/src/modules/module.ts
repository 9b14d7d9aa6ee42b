import type { TSchema } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { PlinthApp } from '../app.js';
import type { Services } from '../services.js';
import type { AccountScopedCache } from '../store/account-caches.js';
import type { CacheDeclaration } from '../store/cache-declaration.js';

/** What a domain module contributes to the app: its shared schemas and its routes. */
export interface PlinthModule {
  name: string;
  /** Component schemas with `$id`, registered at the root so any route and the spec can refer to them. */
  schemas?: TSchema[];
  /** Absent for a module that serves no route of its own (accounts: reached by the operator's CLI). */
  routes?: FastifyPluginAsync;
  /** Wiring that needs the finished app, e.g. registering a credential verifier. */
  onReady?: (app: PlinthApp) => void;
  /** The per-process caches this module keeps, each kept fresh as its declaration says (see `keepFresh`). */
  caches?: ModuleCache[];
}

/** A cache declaration and the cache it keeps fresh, found among the built services. */
export interface ModuleCache {
  declaration: CacheDeclaration;
  cache: (services: Services) => AccountScopedCache;
}
