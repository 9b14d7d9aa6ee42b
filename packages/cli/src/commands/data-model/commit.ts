import type { Ok } from '@plinth/api-client';
import { defineVerb } from '../../core/define.js';
import { BRANCH_OPTION, branchField, modelPath } from './common.js';

export const commit = defineVerb({
  name: 'commit',
  summary: "Push a dev-mode branch's edits to the shared branch it was forked from (commitDataModel)",
  args: ['<deployment_id>'],
  options: [...BRANCH_OPTION, { flags: '-m, --message <message>', description: 'Commit message', required: true }],
  examples: ["plinth data-model commit 1 -m 'Add the orders cube'"],
  async run(f, [deploymentId], opts) {
    const client = await f.client();
    const response = await client.request<Ok<'/build/api/v1/deployments/{deploymentId}/commit', 'post'>>(
      'POST',
      modelPath(deploymentId, '/commit'),
      {
        body: { ...branchField(opts.branch), message: opts.message },
      },
    );
    f.output.status(
      response.data.changed ? `Committed to ${response.data.branchName}` : `Nothing to commit to ${response.data.branchName}`,
    );
    f.output.object(response);
  },
});
