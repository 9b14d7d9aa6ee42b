import { defineVerb } from '../../core/define.js';
import { modelPath } from './common.js';

export const devModeStatus = defineVerb({
  name: 'dev-mode-status',
  summary: "Show your credential's dev-mode session (getDevMode)",
  args: ['<deployment_id>'],
  async run(f, [deploymentId]) {
    const client = await f.client();
    f.output.object(await client.request('GET', modelPath(deploymentId, '/dev-mode')));
  },
});
