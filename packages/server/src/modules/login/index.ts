import type { PlinthModule, ServiceContext } from '../module.js';
import { loginRoutes } from './routes.js';
import { loginSchemas } from './schemas.js';
import { LoginService } from './service.js';
import { loginRetention } from './retention.js';

declare module '../module.js' {
  interface Services {
    login: LoginService;
  }
}

/** Login of the command-line client: device flow, tokens, passwords, invites, whoami (issue 5). */
export const loginModule: PlinthModule = {
  name: 'login',
  tags: {
    Authentication: 'Signing in: the device flow of the command-line client, tokens, passwords and invites.',
  },
  services: {
    login: ({ db, services }: ServiceContext) => new LoginService(db, services.credentials, services.users, services.rateLimits),
  },
  tables: ['device_authorization', 'login_session', 'login_token', 'user_invite'],
  retention: loginRetention,
  schemas: loginSchemas,
  routes: loginRoutes,
};
