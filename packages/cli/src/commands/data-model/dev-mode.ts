import type { Ok } from '@plinth/api-client';
import { defineVerb } from '../../core/define.js';
import { modelPath, nonEmpty } from './common.js';

/** Prints the dev-mode branch's name on stdout, so scripts can capture it. */
export const devMode = defineVerb({
  name: 'dev-mode',
  summary: 'Enter dev mode: fork a new dev-… branch of a shared branch, or resume one of yours (enterDevMode)',
  args: ['<deployment_id>', '<branch>'],
  examples: ['BRANCH=$(plinth data-model dev-mode 1 main)'],
  async run(f, [deploymentId, branch]) {
    const name = nonEmpty(branch, 'The branch to enter dev mode on');
    const client = await f.client();
    const response = await client.request<Ok<'/build/api/v1/deployments/{deploymentId}/dev-mode', 'post'>>(
      'POST',
      modelPath(deploymentId, '/dev-mode'),
      {
        body: { branch: name },
      },
    );
    if (f.output.json) return f.output.raw(response);
    f.output.data(response.data.branchName);
    f.output.status(
      `Dev mode on ${response.data.branchName} (forked from ${response.data.forkedFrom}); commands that omit --branch act on it`,
    );
  },
});
