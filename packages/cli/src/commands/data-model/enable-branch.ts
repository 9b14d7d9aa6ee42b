import { defineVerb } from '../../core/define.js';
import { enc } from '../../core/rest.js';
import { branchColumns } from './branches.js';
import { modelPath, nonEmpty } from './common.js';

export const enableBranch = defineVerb({
  name: 'enable-branch',
  summary: "Keep a shared branch's staging environment always active (enableDataModelBranch)",
  args: ['<deployment_id>', '<name>'],
  async run(f, [deploymentId, name]) {
    const branch = nonEmpty(name, 'The branch name');
    const client = await f.client();
    f.output.object(await client.request('POST', modelPath(deploymentId, `/branches/${enc(branch)}/enable`)), branchColumns);
  },
});
