import { sql, type Expression, type SqlBool } from 'kysely';
import type { Executor } from '../../store/executor.js';

/** A folder as access decisions need it: where it sits and who made it. */
export interface FolderRef {
  id: number;
  parent_id: number | null;
  created_by: number | null;
}

/** What other modules may use of folders beyond the service: a folder of a deployment, on the caller's handle. */
export function findFolder(db: Executor, deploymentId: number, id: number): Promise<FolderRef | undefined> {
  return db
    .selectFrom('folder')
    .select(['id', 'parent_id', 'created_by'])
    .where('deployment_id', '=', deploymentId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export { folderChain, folderOfAccount, foldersByIds, foldersByName, foldersCreatedBy, folderSubtrees } from './tree.js';

/**
 * The folders of a deployment that `readable` lets through, as the workspace lists them: one
 * branch of its union, so every owner gives the same columns in the same order (null where a folder
 * has none) and the workspace pages all of them in one statement.
 */
export function workspaceFolders(db: Executor, deploymentId: number, readable: Expression<SqlBool>) {
  return db
    .selectFrom('folder')
    .select([
      sql<string>`cast('FOLDER' as text)`.as('type'),
      sql<number>`0`.as('rank'),
      'folder.id',
      'folder.name',
      'folder.deployment_id',
      sql.ref<number | null>('folder.parent_id').as('folder_id'),
      sql.ref<number | null>('folder.position').as('position'),
      sql<Record<string, unknown> | null>`null::jsonb`.as('meta'),
      sql<string | null>`null::text`.as('title'),
      sql<string | null>`null::text`.as('description'),
      sql<number | null>`null::integer`.as('workbook_id'),
      sql<string | null>`null::text`.as('public_id'),
      'folder.created_by',
      'folder.updated_by',
      'folder.created_at',
      'folder.updated_at',
    ])
    .where('folder.deployment_id', '=', deploymentId)
    .where(readable);
}
