import type { PlinthModule } from '../module.js';
import { healthRoutes, healthSchemas } from './routes.js';

export const healthModule: PlinthModule = { name: 'health', schemas: healthSchemas, routes: healthRoutes };
