import { defineVerb } from '../../core/define.js';
import { modelPath } from './common.js';

export const mergeToDefault = defineVerb({
  name: 'merge-to-default',
  summary: 'Merge a shared branch into the deploy branch and rebuild production (mergeDataModelBranchToDefault)',
  args: ['<deployment_id>'],
  options: [
    { flags: '--branch <name>', description: 'The shared branch to merge', required: true },
    { flags: '-m, --message <message>', description: 'Commit message' },
    { flags: '--keep-branch', description: 'Keep the branch after merging (it is deleted by default)' },
  ],
  async run(f, [deploymentId], opts) {
    const client = await f.client();
    const body = {
      branch: opts.branch,
      ...(opts.message === undefined ? {} : { message: opts.message }),
      ...(opts.keepBranch ? { keepBranch: true } : {}),
    };
    f.output.object(await client.request('POST', modelPath(deploymentId, '/merge-to-default'), { body }));
  },
});
