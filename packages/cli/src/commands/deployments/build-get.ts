import { defineVerb } from '../../core/define.js';
import { id } from '../../core/rest.js';
import { errorLine, statusLine, type BuildBody } from './build-lines.js';

export const buildGet = defineVerb({
  name: 'build-get',
  summary: 'Show one build and its compiler errors (getDeploymentBuild)',
  args: ['<deployment_id>', '<build_id>'],
  async run(f, [deploymentId, buildId]) {
    const client = await f.client();
    const path = `/api/v1/deployments/${id(deploymentId, 'deployment_id')}/builds/${id(buildId, 'build_id')}`;
    const response = await client.request<BuildBody>('GET', path);
    if (f.output.json) return f.output.raw(response);
    f.output.data([statusLine(response.data), ...response.data.errors.map(errorLine)].join('\n'));
  },
});
