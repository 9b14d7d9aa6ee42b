import { defineVerb } from '../../core/define.js';
import { BRANCH_OPTION, modelPath } from './common.js';

export const remove = defineVerb({
  name: 'delete',
  aliases: ['rm'],
  summary: 'Delete a file on your dev-mode branch (deleteDataModelFile)',
  args: ['<deployment_id>', '<path>'],
  options: BRANCH_OPTION,
  async run(f, [deploymentId, path], opts) {
    const client = await f.client();
    const response = await client.request('DELETE', modelPath(deploymentId, '/files/content'), {
      query: { path: path!, branch: opts.branch },
    });
    f.output.status(`Deleted ${path}`);
    f.output.object(response);
  },
});
