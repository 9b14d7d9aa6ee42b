import type { Ok } from '@plinth/api-client';
import { defineVerb } from '../../core/define.js';
import { modelPath } from './common.js';

export const exitDevMode = defineVerb({
  name: 'exit-dev-mode',
  summary: 'Exit dev mode: commands that omit --branch act on the deploy branch again (exitDevMode)',
  args: ['<deployment_id>'],
  async run(f, [deploymentId]) {
    const client = await f.client();
    const response = await client.request<Ok<'/build/api/v1/deployments/{deploymentId}/dev-mode', 'delete'>>(
      'DELETE',
      modelPath(deploymentId, '/dev-mode'),
    );
    if (f.output.json) return f.output.raw(response);
    f.output.notice(response.data.branchName ? `Left dev mode on ${response.data.branchName}` : 'Not in dev mode');
  },
});
