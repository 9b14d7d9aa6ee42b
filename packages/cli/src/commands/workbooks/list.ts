import { id, listVerb } from '../../core/rest.js';
import { defineOptions } from '../../core/define.js';
import { workbookColumns, workbooksPath } from './paths.js';

const options = defineOptions([{ flags: '--folder <id>', description: 'Only the workbooks of this folder (root: those at the root)' }]);

export const list = listVerb({
  summary: 'List the workbooks of a deployment you may read (getWorkbooks)',
  args: ['<deployment_id>'],
  options,
  path: ([deploymentId]) => workbooksPath(deploymentId),
  query: (opts) => ({ folderId: opts.folder === undefined ? undefined : opts.folder === 'root' ? 0 : id(opts.folder, '--folder') }),
  columns: workbookColumns,
});
