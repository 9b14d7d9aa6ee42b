import type { PlinthModule, ServiceContext } from '../module.js';
import { UserService } from './service.js';
import { userRoutes } from './routes.js';
import { userSchemas } from './schemas.js';

declare module '../module.js' {
  interface Services {
    users: UserService;
  }
}

export const usersModule: PlinthModule = {
  name: 'users',
  services: { users: ({ db }: ServiceContext) => new UserService(db) },
  tables: ['app_user'],
  schemas: userSchemas,
  routes: userRoutes,
};
