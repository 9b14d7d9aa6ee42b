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
