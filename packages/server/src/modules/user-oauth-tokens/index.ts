import type { PlinthModule } from '../module.js';
import { userOAuthTokenRoutes } from './routes.js';
import { userOAuthTokenSchemas } from './schemas.js';
import { UserOAuthTokenService } from './service.js';

declare module '../module.js' {
  interface Services {
    userOAuthTokens: UserOAuthTokenService;
  }
}

/** OAuth tokens users hold through the account's OAuth integrations (issue 16). */
export const userOAuthTokensModule: PlinthModule = {
  name: 'user-oauth-tokens',
  tags: {
    'User OAuth Tokens': 'OAuth tokens users hold for the integrations.',
  },
  services: {
    userOAuthTokens: ({ db, secrets, egress, services }) => new UserOAuthTokenService(db, secrets, services.oauthIntegrations, egress),
  },
  tables: ['user_oauth_token'],
  schemas: userOAuthTokenSchemas,
  routes: userOAuthTokenRoutes,
};
