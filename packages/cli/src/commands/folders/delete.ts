import { defineVerb } from '../../core/define.js';
import { folderPath } from './columns.js';

export const remove = defineVerb({
  name: 'delete',
  aliases: ['rm'],
  summary: 'Delete a folder (deleteFolder)',
  description:
    'A folder that holds anything is refused, saying what it holds, unless --delete-contents: then its sub-folders, workbooks (with their dashboards) and reports go with it.',
  args: ['<deployment_id>', '<folder_id>'],
  options: [{ flags: '--delete-contents', description: 'Delete everything inside the folder too' }],
  examples: ['plinth folders delete 3 12', 'plinth folders delete 3 12 --delete-contents'],
  async run(f, [deploymentId, folderId], opts) {
    const path = folderPath(deploymentId, folderId);
    const client = await f.client();
    const response = await client.request('DELETE', path, { query: { deleteContents: opts.deleteContents ? true : undefined } });
    if (f.output.json && response.text) f.output.raw(response);
    f.output.status(`Deleted folder ${folderId}${opts.deleteContents ? ' and everything in it' : ''}`);
  },
});
