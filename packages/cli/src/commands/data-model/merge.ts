import { defineVerb } from '../../core/define.js';
import { modelPath } from './common.js';

export const merge = defineVerb({
  name: 'merge',
  summary: 'Merge a shared branch into another (mergeDataModelBranch)',
  args: ['<deployment_id>', '<source>', '<target>'],
  options: [{ flags: '-m, --message <message>', description: 'Commit message' }],
  async run(f, [deploymentId, source, target], opts) {
    const client = await f.client();
    const body = { source, target, ...(opts.message === undefined ? {} : { message: opts.message }) };
    f.output.object(await client.request('POST', modelPath(deploymentId, '/merge'), { body }));
  },
});
