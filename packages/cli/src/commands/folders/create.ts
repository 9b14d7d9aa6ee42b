import { bodyVerb } from '../../core/rest.js';
import { folderColumns, foldersPath, nameOf, parentOf, POSITION_OPTION, positionOf } from './columns.js';

export const create = bodyVerb({
  name: 'create',
  summary: 'Create a folder at the root of the workspace or inside a folder (createFolder)',
  description: "Names are unique among a folder's children, ignoring case. Creating inside a folder needs FolderEdit on it.",
  method: 'POST',
  args: ['<deployment_id>'],
  path: ([deploymentId]) => foldersPath(deploymentId),
  options: [
    { flags: '--name <name>', description: 'Name of the folder' },
    { flags: '--parent <id>', description: 'Create it inside this folder (default: the root)' },
    POSITION_OPTION,
  ],
  fields: (opts) => ({ name: nameOf(opts.name), parentId: parentOf(opts.parent) ?? undefined, position: positionOf(opts.position) }),
  required: [['name', '--name']],
  examples: ['plinth folders create 3 --name Sales', 'plinth folders create 3 --name Q1 --parent 12'],
  show: folderColumns,
});
