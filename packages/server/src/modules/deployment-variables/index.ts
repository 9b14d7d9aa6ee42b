import type { PlinthModule } from '../module.js';
import { deploymentVariableRoutes } from './routes.js';
import { deploymentVariableSchemas } from './schemas.js';
import { DeploymentVariableService } from './service.js';

declare module '../module.js' {
  interface Services {
    deploymentVariables: DeploymentVariableService;
  }
}

/** A deployment's environment variables, which configure its warehouse (issue 14). */
export const deploymentVariablesModule: PlinthModule = {
  name: 'deployment-variables',
  tags: {
    'Env Variables': 'Environment variables of a deployment.',
  },
  services: { deploymentVariables: (ctx) => new DeploymentVariableService(ctx) },
  tables: ['deployment_variable'],
  schemas: deploymentVariableSchemas,
  routes: deploymentVariableRoutes,
};
