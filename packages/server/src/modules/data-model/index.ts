import type { PlinthModule } from '../module.js';
import { dataModelRoutes } from './routes.js';
import { dataModelSchemas } from './schemas.js';
import { DataModelService } from './service.js';

declare module '../module.js' {
  interface Services {
    dataModel: DataModelService;
  }
}

/** A deployment's data model: files, commits, branches and dev mode (issue 13), under /build/api/v1. */
export const dataModelModule: PlinthModule = {
  name: 'data-model',
  tags: {
    'Data Model': 'The data model of a deployment: cubes, views and their files.',
  },
  services: { dataModel: (ctx) => new DataModelService(ctx) },
  tables: ['model_blob', 'model_tree', 'model_commit', 'model_branch', 'dev_mode_session'],
  schemas: dataModelSchemas,
  routes: dataModelRoutes,
};
