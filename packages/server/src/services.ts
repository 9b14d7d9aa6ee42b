import type { Config } from './config.js';
import { SecretBox } from './lib/secrets.js';
import type { Store } from './store/store.js';
import { AccountService } from './modules/accounts/service.js';
import { CredentialService } from './modules/credentials/service.js';
import { DeploymentService } from './modules/deployments/service.js';
import { OAuthIntegrationService } from './modules/oauth-integrations/service.js';
import { modules } from './modules/index.js';
import { keepFresh } from './store/account-caches.js';
import { loadMasterKey } from './modules/accounts/master-key.js';
import { UserService } from './modules/users/service.js';
import { GroupService } from './modules/groups/service.js';
import { UserAttributeService } from './modules/user-attributes/service.js';
import { TenantSettingsService } from './modules/tenant-settings/service.js';
import { LoginService } from './modules/login/service.js';
import { TelemetryService } from './modules/telemetry/service.js';
import { ScimService } from './modules/scim/service.js';
import { createEmbedServices, type EmbedServices } from './modules/embed/services.js';
import { RateLimitService } from './modules/rate-limits/service.js';

/**
 * Every domain service, built once per process from the store and the config. Routes reach them
 * through `app.services`; services reach each other only through this object, never each other's
 * tables.
 */
export interface Services {
  accounts: AccountService;
  credentials: CredentialService;
  deployments: DeploymentService;
  oauthIntegrations: OAuthIntegrationService;
  users: UserService;
  groups: GroupService;
  userAttributes: UserAttributeService;
  tenantSettings: TenantSettingsService;
  login: LoginService;
  telemetry: TelemetryService;
  rateLimits: RateLimitService;
  scim: ScimService;
  embed: EmbedServices['embed'];
  embedTenants: EmbedServices['embedTenants'];
  embedProvisioning: EmbedServices['embedProvisioning'];
}

export async function createServices(store: Store, config: Config): Promise<Services> {
  const secrets = new SecretBox(await loadMasterKey(store.db, config));
  const accounts = new AccountService(store.db);
  const credentials = new CredentialService(store.db);
  const users = new UserService(store.db);
  const groups = new GroupService(store.db, users);
  const tenantSettings = new TenantSettingsService(store.db, config.maxExternalUsers);
  const oauthIntegrations = new OAuthIntegrationService(store.db, secrets);
  const rateLimits = new RateLimitService(store.db, config.signInDelayMs);
  const core = {
    accounts,
    credentials,
    deployments: new DeploymentService(store.db),
    oauthIntegrations,
    users,
    groups,
    userAttributes: new UserAttributeService(store.db, users),
    tenantSettings,
    scim: new ScimService(store.db, { users, groups, tenantSettings }),
    login: new LoginService(store.db, credentials, users, rateLimits),
    telemetry: new TelemetryService(store.db, rateLimits),
    rateLimits,
  };
  const services = { ...core, ...createEmbedServices(store, secrets, config.maxExternalUsers, core) };
  await keepCachesFresh(store, services);
  return services;
}

/** Every module's caches, kept fresh as they declare, before the first request can fill them. */
async function keepCachesFresh(store: Store, services: Services): Promise<void> {
  for (const module of modules) {
    for (const { declaration, cache } of module.caches ?? []) await keepFresh(store, declaration, cache(services));
  }
}
