import { defineVerb } from '../../core/define.js';
import { id } from '../../core/rest.js';
import { statusLine, type BuildBody } from './build-lines.js';

export const build = defineVerb({
  name: 'build',
  summary: "Build a branch's head again (createDeploymentBuild)",
  args: ['<deployment_id>'],
  options: [{ flags: '--branch <name>', description: 'Branch (default: your dev-mode branch if a session is open, else main)' }],
  async run(f, [deploymentId], opts) {
    const client = await f.client();
    const body = opts.branch === undefined ? {} : { branch: opts.branch };
    const response = await client.request<BuildBody>('POST', `/api/v1/deployments/${id(deploymentId, 'deployment_id')}/builds`, { body });
    if (f.output.json) return f.output.raw(response);
    f.output.data(statusLine(response.data));
  },
});
