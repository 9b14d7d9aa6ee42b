import { defineVerb } from '../../core/define.js';
import { enc } from '../../core/rest.js';
import { branchColumns } from './branches.js';
import { modelPath, nonEmpty } from './common.js';

export const disableBranch = defineVerb({
  name: 'disable-branch',
  summary: "Make a shared branch's staging environment active only while viewed (disableDataModelBranch)",
  args: ['<deployment_id>', '<name>'],
  async run(f, [deploymentId, name]) {
    const branch = nonEmpty(name, 'The branch name');
    const client = await f.client();
    f.output.object(await client.request('POST', modelPath(deploymentId, `/branches/${enc(branch)}/disable`)), branchColumns);
  },
});
