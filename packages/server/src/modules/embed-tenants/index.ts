import type { PlinthModule } from '../module.js';
import { embedTenantRoutes } from './routes.js';
import { embedTenantSchemas } from './schemas.js';

export const embedTenantsModule: PlinthModule = { name: 'embed-tenants', schemas: embedTenantSchemas, routes: embedTenantRoutes };
