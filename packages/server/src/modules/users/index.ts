import type { PlinthModule, ServiceContext } from '../module.js';
import { UserService } from './service.js';
import { EmbedThemeService } from './embed-theme.js';
import { userRoutes } from './routes.js';
import { userSchemas } from './schemas.js';

declare module '../module.js' {
  interface PlinthActions {
    UserAccessManage: true;
  }
  interface Services {
    users: UserService;
    /** The account's embed theme (embed-theme.ts). */
    embedThemes: EmbedThemeService;
  }
}

export const usersModule: PlinthModule = {
  name: 'users',
  permissions: {
    UserAccessManage: {
      description:
        'Change what a user reaches and who signs in as them: role, active state, e-mail, password, invites, deletion. Needs a credential for every deployment.',
      roles: ['admin'],
      accountWide: true,
    },
  },
  tags: {
    'Users Admin': 'Users and user groups of the account.',
  },
  services: {
    users: ({ db }: ServiceContext) => new UserService(db),
    embedThemes: ({ db }: ServiceContext) => new EmbedThemeService(db),
  },
  tables: ['app_user', 'embed_theme'],
  schemas: userSchemas,
  routes: userRoutes,
};
