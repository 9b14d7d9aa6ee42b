import type { PlinthModule } from '../module.js';
import { DashboardService } from './dashboards.js';
import { dashboardSchemas } from './dashboard-schemas.js';
import { workbookRoutes } from './routes.js';
import { workbookSchemas } from './schemas.js';
import { WorkbookService } from './service.js';

declare module '../module.js' {
  interface Services {
    workbooks: WorkbookService;
    /** Drafts, publishing, embed access and the embedded dashboard (dashboards.ts). */
    dashboards: DashboardService;
  }
}

/** Workbooks and the dashboards they publish (issue 16). */
export const workbooksModule: PlinthModule = {
  name: 'workbooks',
  tags: {
    Workbooks: 'Workbooks and their dashboards.',
    'Dashboard Embed Access': 'Which dashboards may be embedded, and by whom.',
  },
  services: {
    workbooks: (ctx) => new WorkbookService(ctx),
    dashboards: (ctx) => new DashboardService(ctx, ctx.services.workbooks),
  },
  tables: ['workbook', 'dashboard', 'dashboard_version'],
  schemas: [...dashboardSchemas, ...workbookSchemas],
  routes: workbookRoutes,
};
