import { toIso } from '../../http/common-schemas.js';
import { badRequest, conflict } from '../../http/errors.js';
import type { Principal } from '../../http/principal.js';
import type { FolderRow } from '../../store/schema.js';
import type { Services } from '../module.js';
import type { FolderView } from './schemas.js';

/** How deep folders nest: deep enough for any real tree, shallow enough that walking it stays cheap. */
export const MAX_DEPTH = 32;

type ContentAccess = Services['contentAccess'];
/** What content access needs to know of an item (its ContentItem), named without reaching into its module. */
export type ContentItem = Parameters<ContentAccess['demand']>[1];
export type UserPrincipal = Extract<Principal, { kind: 'apiKey' | 'accessToken' }>;

export const folderItem = (row: FolderRow): ContentItem => ({
  type: 'Folder',
  id: row.id,
  deploymentId: row.deployment_id,
  ownerId: row.created_by,
  folderId: row.parent_id,
  // Folders are the account's: creator mode makes none.
  embedTenantId: null,
});

export function toFolderView(row: FolderRow): FolderView {
  return {
    id: row.id,
    name: row.name,
    parentId: row.parent_id,
    position: row.position,
    type: 'FOLDER',
    deploymentId: row.deployment_id,
    createdBy: row.created_by,
    updatedBy: row.updated_by,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}

/** A folder's name as stored: trimmed, and not blank (the schema already bounds its length). */
export function checkName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '') throw badRequest('name is blank: give the folder a name');
  return trimmed;
}

/** The 409 of the unique index on (deployment, parent, lower(name)). */
export const nameTaken = (name: string, parentId: number | null) =>
  conflict(`A folder named "${name}" already exists ${parentId === null ? 'at the root of the workspace' : `in folder ${parentId}`}`);

/** The query's `parentId`: absent, `null`, empty or 0 all mean the root. */
export function parentOf(value: number | string | undefined): number | null {
  if (value === undefined || value === '' || value === 'null' || value === 0) return null;
  return Number(value);
}

export function tooDeep(depth: number): Error {
  return badRequest(`Folders nest at most ${MAX_DEPTH} levels deep; this would make ${depth}`);
}

/** The 409 of deleting a folder that holds something, saying what. */
export function notEmpty(id: number, held: { folders: number; reports: number; workbooks: number }): Error {
  const total = held.folders + held.reports + held.workbooks;
  const parts = [
    [held.folders, 'folder'],
    [held.workbooks, 'workbook'],
    [held.reports, 'report'],
  ]
    .filter(([n]) => (n as number) > 0)
    .map(([n, what]) => `${n} ${what}${n === 1 ? '' : 's'}`);
  return conflict(
    `Folder ${id} is not empty: it holds ${total} item${total === 1 ? '' : 's'} (${parts.join(', ')}); move or delete them first, or pass deleteContents=true to delete the folder with everything in it`,
  );
}

/** PostgreSQL's foreign_key_violation: a row referred to is gone (deleted by a concurrent request). */
export function isForeignKeyViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23503';
}
