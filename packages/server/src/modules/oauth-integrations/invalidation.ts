import type { CacheDeclaration } from '../../store/cache-declaration.js';
import type { ModuleCache } from '../module.js';

/** Every column: any update or delete can change what a read by id returns. */
export const OAUTH_INTEGRATIONS_CACHE: CacheDeclaration = {
  channel: 'plinth_oauth_integrations',
  tables: { oauth_integration: { updates: 'any' } },
};

export const oauthIntegrationCaches: ModuleCache[] = [
  { declaration: OAUTH_INTEGRATIONS_CACHE, cache: (services) => services.oauthIntegrations.byId },
];
