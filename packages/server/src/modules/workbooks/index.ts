import type { PlinthModule } from '../module.js';

/** Workbooks and the dashboards they publish (issue 16). */
export const workbooksModule: PlinthModule = {
  name: 'workbooks',
  tables: ['workbook', 'dashboard', 'dashboard_version'],
};
