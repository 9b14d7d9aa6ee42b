import { defineVerb } from '../../core/define.js';
import { BRANCH_OPTION, branchField, modelPath } from './common.js';

export const pull = defineVerb({
  name: 'pull',
  summary: "Bring the shared branch's newer commits into your dev-mode branch (pullDataModel)",
  args: ['<deployment_id>'],
  options: BRANCH_OPTION,
  async run(f, [deploymentId], opts) {
    const client = await f.client();
    f.output.object(await client.request('POST', modelPath(deploymentId, '/pull'), { body: branchField(opts.branch) }));
  },
});
