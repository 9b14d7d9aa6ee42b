import { defineVerb } from '../../core/define.js';
import { modelPath } from './common.js';

export const createBranch = defineVerb({
  name: 'create-branch',
  summary: 'Create a shared branch (createDataModelBranch)',
  args: ['<deployment_id>', '<name>'],
  options: [
    {
      flags: '--dev-mode',
      description: 'Point your dev-mode session at the new branch (no fork; run dev-mode on it to get a writable branch)',
    },
    { flags: '--from <branch>', description: 'Branch to start from (default: the deploy branch main)' },
  ],
  async run(f, [deploymentId, name], opts) {
    const client = await f.client();
    const body = { name, ...(opts.devMode ? { devMode: true } : {}), ...(opts.from === undefined ? {} : { from: opts.from }) };
    const response = await client.request('POST', modelPath(deploymentId, '/branches'), { body });
    f.output.status(`Created branch ${name}`);
    f.output.object(response);
  },
});
