import type { PlinthModule } from '../module.js';
import { reportRoutes } from './routes.js';
import { reportSchemas } from './schemas.js';
import { ReportService } from './service.js';

declare module '../module.js' {
  interface Services {
    reports: ReportService;
  }
}

/** Reports: saved queries of a deployment's workspace and their snapshots (issue 16). */
export const reportsModule: PlinthModule = {
  name: 'reports',
  tags: {
    Reports: 'Saved reports of a deployment.',
  },
  services: { reports: (ctx) => new ReportService(ctx) },
  tables: ['report'],
  schemas: reportSchemas,
  routes: reportRoutes,
};
