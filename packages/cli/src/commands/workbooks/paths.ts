import { id } from '../../core/rest.js';
import type { Column } from '../../core/output.js';

/** Every workbook verb names the deployment first, then the workbook: `plinth workbooks get 3 12`. */
export const workbooksPath = (deploymentId: string | undefined) => `/api/v1/deployments/${id(deploymentId, 'deployment_id')}/workbooks`;
export const workbookPath = ([deploymentId, workbookId]: string[]) => `${workbooksPath(deploymentId)}/${id(workbookId, 'workbook_id')}`;

export const workbookColumns: Column[] = [
  ['ID', 'id'],
  ['Name', 'name'],
  ['Folder', (w) => w.folderId ?? ''],
  ['Owner', (w) => w.userId ?? ''],
  ['Dashboard', (w) => (w.publishedDashboard ? `${w.publishedDashboard.status} v${w.publishedDashboard.versionNumber}` : '')],
  ['Updated', 'updatedAt'],
];

/** A folder id, or `root` (also `none`) for the root of the workspace. */
export function folderOf(value: string | undefined): number | null | undefined {
  if (value === undefined) return undefined;
  if (value === 'root' || value === 'none') return null;
  return id(value, '--folder');
}
