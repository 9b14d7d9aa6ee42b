import type { PlinthModule } from '../module.js';
import { oauthIntegrationCaches } from './invalidation.js';
import { oauthIntegrationRoutes } from './routes.js';
import { oauthIntegrationSchemas } from './schemas.js';

export const oauthIntegrationsModule: PlinthModule = {
  name: 'oauth-integrations',
  schemas: oauthIntegrationSchemas,
  routes: oauthIntegrationRoutes,
  caches: oauthIntegrationCaches,
};
