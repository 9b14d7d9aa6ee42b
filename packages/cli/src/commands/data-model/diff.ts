import type { Ok } from '@plinth/api-client';
import { defineVerb } from '../../core/define.js';
import { BRANCH_OPTION, modelPath } from './common.js';

export const diff = defineVerb({
  name: 'diff',
  summary: 'Show what a branch changed against the branch it came from (getDataModelBranchDiff)',
  args: ['<deployment_id>'],
  options: BRANCH_OPTION,
  async run(f, [deploymentId], opts) {
    const client = await f.client();
    const response = await client.request<Ok<'/build/api/v1/deployments/{deploymentId}/diff', 'get'>>(
      'GET',
      modelPath(deploymentId, '/diff'),
      { query: { branch: opts.branch } },
    );
    if (f.output.json) return f.output.raw(response);
    f.output.list({ ...response, data: { items: response.data.changes } }, [
      ['Change', 'change'],
      ['Path', 'path'],
    ]);
  },
});
