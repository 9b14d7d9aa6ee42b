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
  tags: {
    Deployments: 'Deployments of the account: the unit that holds a data model, environments and the data API.',
    'Deployment Creation': 'Creating a deployment.',
    Regions: 'Regions a deployment can run in.',
  },
  services: {
    // dataApi is read when a deployment is deleted, not here: the data API's service reads this one.
    deployments: ({ db, config, services }: ServiceContext) =>
      new DeploymentService(db, config, (deploymentId) => services.dataApi.warehouses.discard(deploymentId)),
  },
  tables: ['deployment', 'engine_version_run'],
  schemas: deploymentSchemas,
  routes: deploymentRoutes,
};
