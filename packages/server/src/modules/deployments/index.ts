import type { PlinthModule, ServiceContext } from '../module.js';
import { deploymentRoutes } from './routes.js';
import { deploymentSchemas } from './schemas.js';
import { DeploymentService } from './service.js';

declare module '../module.js' {
  interface Services {
    deployments: DeploymentService;
  }
}

export const deploymentsModule: PlinthModule = {
  name: 'deployments',
  services: { deployments: ({ db, config }: ServiceContext) => new DeploymentService(db, config) },
  tables: ['deployment', 'engine_version_run'],
  schemas: deploymentSchemas,
  routes: deploymentRoutes,
};
