import type { PlinthModule, ServiceContext } from '../module.js';
import { embedTenantCaches } from './invalidation.js';
import { EmbedLookups } from './lookups.js';
import { EmbedProvisioningService } from './provisioning.js';
import { embedTenantRoutes } from './routes.js';
import { embedTenantSchemas } from './schemas.js';
import { EmbedTenantService } from './service.js';
import { embedTenantRetention } from './retention.js';

declare module '../module.js' {
  interface Services {
    embedTenants: EmbedTenantService;
    embedProvisioning: EmbedProvisioningService;
  }
}

export const embedTenantsModule: PlinthModule = {
  name: 'embed-tenants',
  tags: {
    'Embed Tenants': 'Groups, user attributes and provisioned users inside an embed tenant.',
  },
  services: {
    embedTenants: ({ db, config, services }: ServiceContext) =>
      new EmbedTenantService(db, new EmbedLookups(services), config.maxExternalUsers),
    embedProvisioning: ({ db, services }: ServiceContext) => new EmbedProvisioningService(db, services.embedTenants),
  },
  tables: [
    'embed_account',
    'embed_tenant',
    'embed_group',
    'embed_user_attribute',
    'external_user',
    'external_user_group',
    'external_user_attribute_value',
    'external_user_tenant_group',
    'external_user_tenant_attribute_value',
  ],
  retention: embedTenantRetention,
  schemas: embedTenantSchemas,
  routes: embedTenantRoutes,
  caches: embedTenantCaches,
};
