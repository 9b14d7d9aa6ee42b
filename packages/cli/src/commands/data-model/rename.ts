import { defineVerb } from '../../core/define.js';
import { BRANCH_OPTION, branchField, modelPath } from './common.js';

export const rename = defineVerb({
  name: 'rename',
  aliases: ['mv'],
  summary: 'Rename a file on your dev-mode branch (renameDataModelFile)',
  args: ['<deployment_id>', '<from>', '<to>'],
  options: BRANCH_OPTION,
  async run(f, [deploymentId, from, to], opts) {
    const client = await f.client();
    const response = await client.request('POST', modelPath(deploymentId, '/files/rename'), {
      body: { from, to, ...branchField(opts.branch) },
    });
    f.output.status(`Renamed ${from} to ${to}`);
    f.output.object(response);
  },
});
