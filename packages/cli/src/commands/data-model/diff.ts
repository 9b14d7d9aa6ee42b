import { defineVerb } from '../../core/define.js';
import { BRANCH_OPTION, modelPath } from './common.js';

export const diff = defineVerb({
  name: 'diff',
  summary: 'Show what a branch changed against the branch it came from (getDataModelBranchDiff)',
  args: ['<deployment_id>'],
  options: BRANCH_OPTION,
  async run(f, [deploymentId], opts) {
    const client = await f.client();
    const response = await client.request('GET', modelPath(deploymentId, '/diff'), { query: { branch: opts.branch } });
    if (f.output.json) return f.output.raw(response);
    const data = response.data as { changes: unknown[] };
    f.output.list({ ...response, data: { items: data.changes } }, [
      ['Change', 'change'],
      ['Path', 'path'],
    ]);
  },
});
