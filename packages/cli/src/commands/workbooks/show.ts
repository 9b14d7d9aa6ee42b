import type { Column } from '../../core/output.js';

/** What create, update and duplicate print of the workbook they answer with. */
export const workbookFields: Column[] = [
  ['ID', 'id'],
  ['Name', 'name'],
  ['Deployment', 'deploymentId'],
  ['Folder', (w) => w.folderId ?? 'root'],
  ['Calculated fields', (w) => Object.keys(w.calculatedFields ?? {}).join(', ')],
  ['Draft widgets', (w) => w.dashboardDraft?.widgets?.length ?? 0],
  [
    'Dashboard',
    (w) =>
      w.publishedDashboard
        ? `${w.publishedDashboard.publicId} (${w.publishedDashboard.status} v${w.publishedDashboard.versionNumber})`
        : '',
  ],
];
