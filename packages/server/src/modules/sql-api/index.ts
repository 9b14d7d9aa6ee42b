import type { PlinthModule } from '../module.js';
import { provisionMissingJob } from './provision-job.js';
import { SqlApiService } from './service.js';

declare module '../module.js' {
  interface Services {
    sqlApi: SqlApiService;
  }
}

/**
 * The SQL API over the PostgreSQL wire protocol: BI tools connect with their PostgreSQL driver to
 * a deployment's database, as an environment's SQL user (SCRAM-SHA-256) or with a data API or
 * embed token as the password (user `token`). It serves no HTTP route: its listener is started by
 * the server's main (PLINTH_SQL_PORT) and by tests.
 */
export const sqlApiModule: PlinthModule = {
  name: 'sql-api',
  services: { sqlApi: (ctx) => new SqlApiService(ctx) },
  tables: ['sql_api_credential'],
  jobs: [provisionMissingJob],
  // No route: only the listener's and the catalogs' end when the app closes.
  routes: async (app) => {
    app.addHook('onClose', () => app.services.sqlApi.close());
  },
};
