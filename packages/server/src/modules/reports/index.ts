import type { PlinthModule } from '../module.js';

/** Reports: saved queries of a deployment's workspace and their snapshots (issue 16). */
export const reportsModule: PlinthModule = {
  name: 'reports',
  tables: ['report'],
};
