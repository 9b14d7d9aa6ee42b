import type { PlinthModule, ServiceContext } from '../module.js';
import { OAuthIntegrationService } from './service.js';
import { oauthIntegrationCaches } from './invalidation.js';
import { oauthIntegrationRoutes } from './routes.js';
import { oauthIntegrationSchemas } from './schemas.js';

declare module '../module.js' {
  interface Services {
    oauthIntegrations: OAuthIntegrationService;
  }
}

export const oauthIntegrationsModule: PlinthModule = {
  name: 'oauth-integrations',
  tags: {
    'OAuth Integrations': 'OAuth clients the account uses to reach other services.',
  },
  services: {
    oauthIntegrations: ({ db, secrets, egress }: ServiceContext) => new OAuthIntegrationService(db, secrets, egress),
  },
  tables: ['oauth_integration'],
  schemas: oauthIntegrationSchemas,
  routes: oauthIntegrationRoutes,
  caches: oauthIntegrationCaches,
};
