import type { PlinthModule } from '../module.js';
import { userAttributeRoutes } from './routes.js';
import { userAttributeSchemas } from './schemas.js';

export const userAttributesModule: PlinthModule = {
  name: 'user-attributes',
  schemas: userAttributeSchemas,
  routes: userAttributeRoutes,
};
