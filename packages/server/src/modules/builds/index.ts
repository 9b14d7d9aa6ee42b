import type { PlinthModule } from '../module.js';
import { buildJob } from './job.js';
import { buildRoutes } from './routes.js';
import { buildSchemas } from './schemas.js';
import { BuildService } from './service.js';

declare module '../module.js' {
  interface Services {
    builds: BuildService;
  }
}

/** Builds of data-model commits, run as jobs by any server process; validate and build status (issue 13). */
export const buildsModule: PlinthModule = {
  name: 'builds',
  services: { builds: (ctx) => new BuildService(ctx) },
  tables: ['model_build'],
  schemas: buildSchemas,
  routes: buildRoutes,
  jobs: [buildJob],
};
