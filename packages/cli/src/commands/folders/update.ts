import { bodyVerb } from '../../core/rest.js';
import { folderColumns, folderPath, nameOf, parentOf, POSITION_OPTION, positionOf } from './columns.js';

export const update = bodyVerb({
  name: 'update',
  summary: 'Rename, reorder or move a folder (updateFolder)',
  description: 'Only what you give changes. --parent moves it (root: to the top); never into itself or a folder inside it.',
  method: 'PUT',
  args: ['<deployment_id>', '<folder_id>'],
  path: ([deploymentId, folderId]) => folderPath(deploymentId, folderId),
  options: [
    { flags: '--name <name>', description: 'New name' },
    { flags: '--parent <id>', description: 'Move it into this folder, or `root`' },
    POSITION_OPTION,
  ],
  fields: (opts) => ({ name: nameOf(opts.name), parentId: parentOf(opts.parent), position: positionOf(opts.position) }),
  examples: ['plinth folders update 3 12 --name "Sales EMEA"', 'plinth folders update 3 12 --parent root'],
  show: folderColumns,
});
