import type { PlinthModule, ServiceContext } from '../module.js';
import { TenantSettingsService } from './service.js';
import { tenantSettingsRoutes } from './routes.js';
import { tenantSettingsSchemas } from './schemas.js';

declare module '../module.js' {
  interface Services {
    tenantSettings: TenantSettingsService;
  }
}

export const tenantSettingsModule: PlinthModule = {
  name: 'tenant-settings',
  tags: {
    'Tenant Settings': 'Settings of the account, such as embedding, creator mode and the bulk action limit.',
  },
  services: {
    tenantSettings: ({ db, config }: ServiceContext) => new TenantSettingsService(db, config.maxExternalUsers),
  },
  tables: ['tenant_settings'],
  schemas: tenantSettingsSchemas,
  routes: tenantSettingsRoutes,
};
