import type { PlinthModule } from '../module.js';
import { userRoutes } from './routes.js';
import { userSchemas } from './schemas.js';

export const usersModule: PlinthModule = {
  name: 'users',
  schemas: userSchemas,
  routes: userRoutes,
};
