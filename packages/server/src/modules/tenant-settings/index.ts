import type { PlinthModule } from '../module.js';
import { tenantSettingsRoutes } from './routes.js';
import { tenantSettingsSchemas } from './schemas.js';

export const tenantSettingsModule: PlinthModule = {
  name: 'tenant-settings',
  schemas: tenantSettingsSchemas,
  routes: tenantSettingsRoutes,
};
