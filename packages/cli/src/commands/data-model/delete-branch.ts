import { defineVerb } from '../../core/define.js';
import { enc } from '../../core/rest.js';
import { modelPath, nonEmpty } from './common.js';

export const deleteBranch = defineVerb({
  name: 'delete-branch',
  summary: 'Delete a shared branch or one of your dev-mode branches (deleteDataModelBranch)',
  args: ['<deployment_id>', '<name>'],
  options: [{ flags: '--remove-on-upstream', description: 'Also remove the branch of the connected Git repository' }],
  async run(f, [deploymentId, name], opts) {
    const branch = nonEmpty(name, 'The branch name');
    const client = await f.client();
    const response = await client.request('DELETE', modelPath(deploymentId, `/branches/${enc(branch)}`), {
      query: { removeOnUpstream: opts.removeOnUpstream ? true : undefined },
    });
    f.output.status(`Deleted branch ${branch}`);
    f.output.object(response);
  },
});
