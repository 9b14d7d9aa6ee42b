import type { PlinthModule } from '../module.js';
import { groupRoutes } from './routes.js';
import { groupSchemas } from './schemas.js';

export const groupsModule: PlinthModule = {
  name: 'groups',
  schemas: groupSchemas,
  routes: groupRoutes,
};
