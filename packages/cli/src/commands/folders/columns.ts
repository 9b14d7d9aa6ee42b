import { int, positiveInt } from '../../core/body.js';
import { UsageError } from '../../core/errors.js';
import type { Column } from '../../core/output.js';
import { id } from '../../core/rest.js';

export const folderColumns: Column[] = [
  ['ID', 'id'],
  ['Name', 'name'],
  ['Parent', (f) => f.parentId ?? 'root'],
  ['Position', 'position'],
  ['Updated', 'updatedAt'],
];

export const foldersPath = (deploymentId: string | undefined) => `/api/v1/deployments/${id(deploymentId, 'deployment_id')}/folders`;
export const folderPath = (deploymentId: string | undefined, folderId: string | undefined) =>
  `${foldersPath(deploymentId)}/${id(folderId, 'folder_id')}`;

/** `--parent <id>` or `--parent root`: the folder to create or move into. */
export function parentOf(value: string | undefined): number | null | undefined {
  if (value === undefined) return undefined;
  if (value === 'root') return null;
  return positiveInt(value, '--parent');
}

export const POSITION_OPTION = { flags: '--position <n>', description: 'Order among its sibling folders (lists sort by it)' } as const;
export const positionOf = (value: string | undefined) => int(value, '--position');

/** A blank name is refused by the server too; told here before anything is sent. */
export function nameOf(value: string | undefined): string | undefined {
  if (value !== undefined && value.trim() === '') throw new UsageError('--name is blank; give the folder a name');
  return value;
}
