import type { PlinthModule } from '../module.js';
import { dbtSyncJob } from './job.js';
import { dbtRoutes } from './routes.js';
import { dbtSchemas } from './schemas.js';
import { DbtService } from './service.js';

declare module '../module.js' {
  interface Services {
    dbt: DbtService;
  }
}

/** A deployment's dbt integration and the sync jobs that generate cubes from its dbt project (issue 15). */
export const dbtModule: PlinthModule = {
  name: 'dbt',
  tags: {
    'dbt Sync': 'Synchronising a data model from a dbt project.',
  },
  services: { dbt: (ctx) => new DbtService(ctx) },
  tables: ['dbt_integration', 'dbt_sync'],
  schemas: dbtSchemas,
  routes: dbtRoutes,
  jobs: [dbtSyncJob],
};
