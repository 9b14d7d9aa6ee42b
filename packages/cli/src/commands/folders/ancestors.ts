import { defineVerb } from '../../core/define.js';
import { folderColumns, folderPath } from './columns.js';

export const ancestors = defineVerb({
  name: 'ancestors',
  summary: 'Print the folders from the root down to a folder, itself included (getFolderAncestors)',
  args: ['<deployment_id>', '<folder_id>'],
  examples: ['plinth folders ancestors 3 12'],
  async run(f, [deploymentId, folderId]) {
    const path = `${folderPath(deploymentId, folderId)}/ancestors`;
    const client = await f.client();
    f.output.list(await client.request('GET', path), folderColumns);
  },
});
