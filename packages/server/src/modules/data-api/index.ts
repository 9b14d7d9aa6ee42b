import type { PlinthModule } from '../module.js';
import { dataApiCaches } from './invalidation.js';
import { dataApiRoutes } from './routes.js';
import { dataApiSchemas } from './schemas.js';
import { DataApiService } from './service.js';

declare module '../module.js' {
  interface PlinthActions {
    DataApiQuery: true;
  }
  interface Services {
    dataApi: DataApiService;
  }
}

/** Cube's data API (`/d/{id}/cubejs-api/v1/...`) over each deployment's latest successful build (issue 14). */
export const dataApiModule: PlinthModule = {
  name: 'data-api',
  permissions: {
    DataApiQuery: {
      description: 'Query the data API of one deployment (data API tokens and embed tokens only).',
      kinds: ['embedToken', 'dataToken'],
    },
  },
  tags: {
    'Data API': 'Queries against the semantic layer of a deployment.',
  },
  services: { dataApi: (ctx) => new DataApiService(ctx) },
  schemas: dataApiSchemas,
  routes: dataApiRoutes,
  caches: dataApiCaches,
};
