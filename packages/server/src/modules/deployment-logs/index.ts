import type { PlinthModule } from '../module.js';
import { deploymentLogRoutes } from './routes.js';
import { deploymentLogSchemas } from './schemas.js';
import { DeploymentLogService } from './service.js';
import { deploymentLogRetention } from './retention.js';

declare module '../module.js' {
  interface Services {
    deploymentLogs: DeploymentLogService;
  }
}

/** A deployment's logs: what its builds (and, with issue 14, its data API) wrote, listed and followed. */
export const deploymentLogsModule: PlinthModule = {
  name: 'deployment-logs',
  services: { deploymentLogs: (ctx) => new DeploymentLogService(ctx) },
  tables: ['build_log'],
  retention: deploymentLogRetention,
  schemas: deploymentLogSchemas,
  routes: deploymentLogRoutes,
};
