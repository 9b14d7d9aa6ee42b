import { defineVerb } from '../../core/define.js';
import { id } from '../../core/rest.js';
import { statusLine, type BuildBody } from './build-lines.js';

export const buildCancel = defineVerb({
  name: 'build-cancel',
  summary: 'Cancel a build: a queued one at once, a running one at its next step (cancelDeploymentBuild)',
  args: ['<deployment_id>', '<build_id>'],
  async run(f, [deploymentId, buildId]) {
    const client = await f.client();
    const path = `/api/v1/deployments/${id(deploymentId, 'deployment_id')}/builds/${id(buildId, 'build_id')}/cancel`;
    const response = await client.request<BuildBody>('POST', path, { body: {} });
    if (f.output.json) return f.output.raw(response);
    f.output.data(statusLine(response.data));
  },
});
