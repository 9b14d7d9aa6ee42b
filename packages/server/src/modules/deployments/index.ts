import type { PlinthModule } from '../module.js';
import { deploymentRoutes } from './routes.js';
import { deploymentSchemas } from './schemas.js';

export const deploymentsModule: PlinthModule = { name: 'deployments', schemas: deploymentSchemas, routes: deploymentRoutes };
