import { listVerb } from '../../core/rest.js';
import { folderColumns, foldersPath, parentOf } from './columns.js';

export const list = listVerb({
  summary: "List the folders of one level of a deployment's workspace that you may read (getFolders)",
  args: ['<deployment_id>'],
  path: ([deploymentId]) => foldersPath(deploymentId),
  options: [{ flags: '--parent <id>', description: 'The folders inside this folder (default: the root)' }],
  query: (opts) => ({ parentId: parentOf(opts.parent) ?? undefined }),
  columns: folderColumns,
});
