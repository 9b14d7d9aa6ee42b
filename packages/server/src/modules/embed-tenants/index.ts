import type { PlinthModule } from '../module.js';
import { embedTenantCaches } from './invalidation.js';
import { embedTenantRoutes } from './routes.js';
import { embedTenantSchemas } from './schemas.js';

export const embedTenantsModule: PlinthModule = { name: 'embed-tenants', schemas: embedTenantSchemas, routes: embedTenantRoutes, caches: embedTenantCaches };
