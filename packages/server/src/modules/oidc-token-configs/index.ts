import type { PlinthModule } from '../module.js';
import { OidcTokenExchanger } from './exchange.js';
import { IssuerKeys } from './issuer-keys.js';
import { oidcTokenConfigRoutes } from './routes.js';
import { oidcTokenConfigSchemas } from './schemas.js';
import { OidcTokenConfigService } from './service.js';

declare module '../module.js' {
  interface Services {
    oidcTokenConfigs: OidcTokenConfigService;
    /** RFC 8693 exchange of a trusted issuer's ID tokens for access tokens (exchange.ts). */
    oidcTokenExchange: OidcTokenExchanger;
  }
}

/** OIDC token configs and the token exchange they allow (issue 16). */
export const oidcTokenConfigsModule: PlinthModule = {
  name: 'oidc-token-configs',
  tags: {
    'OIDC Token Configs': 'OpenID Connect token configurations.',
  },
  services: {
    oidcTokenConfigs: ({ db, egress }) => new OidcTokenConfigService(db, egress),
    oidcTokenExchange: ({ services, egress }) =>
      new OidcTokenExchanger(
        services.oidcTokenConfigs.repo,
        new IssuerKeys(egress),
        services.users,
        services.credentials,
        services.rateLimits,
      ),
  },
  tables: ['oidc_token_config'],
  schemas: oidcTokenConfigSchemas,
  routes: oidcTokenConfigRoutes,
};
