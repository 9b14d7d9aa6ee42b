import type { TSchema } from '@sinclair/typebox';
import type { RawBuilder } from 'kysely';
import type { FastifyPluginAsync } from 'fastify';
import type { PlinthApp } from '../app.js';
import type { JobKind } from '../jobs/kind.js';
import type { Schedule } from '../jobs/schedules.js';
import type { Config } from '../config.js';
import type { EgressPolicy } from '../egress/policy.js';
import type { SecretBox } from '../lib/secrets.js';
import type { AccountScopedCache } from '../store/account-caches.js';
import type { CacheDeclaration } from '../store/cache-declaration.js';
import type { CredentialKind } from '../http/principal.js';
import type { Database, Role } from '../store/schema.js';
import type { Store } from '../store/store.js';

/**
 * What a domain module contributes to the server, all declared here so that adding a module is
 * adding its folder and nothing else (modules/index.ts finds it): its services, schemas, routes,
 * caches and the tables it owns.
 */
export interface PlinthModule {
  name: string;
  /**
   * The services it offers, by the name they have on `app.services`. Each factory gets the store,
   * the config, the secret box and every other module's services (`ctx.services.users`): a service
   * another one uses is built first, on demand, and a cycle fails at start-up.
   */
  services?: ServiceFactories;
  /** Component schemas with `$id`, registered at the root so any route and the spec can refer to them. */
  schemas?: TSchema[];
  /**
   * The operation groups of the spec its routes open, with what each holds (http/openapi.ts lists
   * them). A group has one module; another module's routes may be listed under it too.
   */
  tags?: Readonly<Record<string, string>>;
  /** Absent for a module that serves no route of its own (accounts, rate limits). */
  routes?: FastifyPluginAsync;
  /** Wiring that needs the finished app, e.g. registering a credential verifier. */
  onReady?: (app: PlinthApp) => void;
  /** Kinds of background work the module runs, each made with `defineJob` (jobs/define.ts); every process runs those of its queues. */
  jobs?: JobKind<any>[]; // eslint-disable-line @typescript-eslint/no-explicit-any -- each kind types its own payload
  /** Cron and per-row schedules that enqueue its jobs (see jobs/schedules.ts); every process's runner ticks them. */
  schedules?: Schedule[];
  /** The per-process caches this module keeps, each kept fresh as its declaration says (see `keepFresh`). */
  caches?: ModuleCache[];
  /** The tables it owns: each table of the migrated database belongs to exactly one module (schema.test.ts). */
  tables?: readonly (keyof Database)[];
  /** When rows of its tables are over, for the retention sweep to delete (modules/retention). */
  retention?: readonly RetentionRule[];
  /**
   * Plinth's own actions for its operations, where the reference's resource policies have none
   * (http/permissions.ts gathers them): what each means and who holds it.
   */
  permissions?: { readonly [A in keyof PlinthActions]?: PermissionDeclaration };
}

/**
 * Plinth's own actions by name. Each module adds those it declares
 * (`declare module '../module.js' { interface PlinthActions { ApiKeysManage: true } }`) beside
 * their declarations, so the type needs no central list.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface PlinthActions {}

/** One of Plinth's own actions: every operation that needs it says so in `description`. */
export interface PermissionDeclaration {
  description: string;
  /** The roles of internal users that hold it; an API key or access token holds its role's. */
  roles?: readonly Role[];
  /** It reaches the whole account, so a key limited to deployments never holds it. */
  accountWide?: boolean;
  /** An API key's own `permissions` may name it (an action within deployments). */
  keys?: boolean;
  /** Credentials that act for no internal user and hold it. */
  kinds?: readonly Exclude<CredentialKind, 'apiKey' | 'accessToken'>[];
}

/**
 * Rows that are over: `expired` selects them, by an indexed column, as of `now`. The owning
 * module's constants say when a row stops mattering; each rule explains why it is safe to forget.
 */
export interface RetentionRule {
  table: keyof Database & string;
  /** The column the batches delete by: the primary key. */
  key: string;
  expired(now: number, config: Config): RawBuilder<unknown>;
}

/** What a service factory is given. */
export interface ServiceContext {
  store: Store;
  db: Store['db'];
  config: Config;
  secrets: SecretBox;
  /** What tenant-chosen URLs and paths may reach: every outbound request or clone goes through it. */
  egress: EgressPolicy;
  /** Every module's services; reading one builds it if it is not built yet. */
  services: Services;
}

/**
 * Every domain service by its name on `app.services`. Each module adds its own services to this
 * interface (`declare module '../module.js' { interface Services { users: UserService } }`) next to
 * their factories, so the type needs no central list either.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface Services {}

export type ServiceFactories = { [K in keyof Services]?: (ctx: ServiceContext) => Services[K] };
export type ServiceFactory = (ctx: ServiceContext) => unknown;

/** A cache declaration and the cache it keeps fresh, found among the built services. */
export interface ModuleCache {
  declaration: CacheDeclaration;
  cache: (services: Services) => AccountScopedCache;
}
