import type { PlinthModule } from '../module.js';
import { healthRoutes, healthSchemas } from './routes.js';

export const healthModule: PlinthModule = {
  name: 'health',
  tags: { Health: 'Liveness and readiness, for load balancers and orchestrators.' },
  schemas: healthSchemas,
  routes: healthRoutes,
};
