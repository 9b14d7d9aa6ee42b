import type { Ok } from '@plinth/api-client';
import { defineVerb } from '../../core/define.js';
import { BRANCH_OPTION, modelPath } from './common.js';

/** Prints the file's content exactly as stored (no added newline), so it can be redirected to a file. */
export const get = defineVerb({
  name: 'get',
  summary: 'Print a data model file (getDataModelFile)',
  args: ['<deployment_id>', '<path>'],
  options: BRANCH_OPTION,
  examples: ['plinth data-model get 1 model/cubes/orders.yml > orders.yml'],
  async run(f, [deploymentId, path], opts) {
    const client = await f.client();
    const response = await client.request<Ok<'/build/api/v1/deployments/{deploymentId}/files/content', 'get'>>(
      'GET',
      modelPath(deploymentId, '/files/content'),
      {
        query: { path: path!, branch: opts.branch },
      },
    );
    if (f.output.json) return f.output.raw(response);
    f.io.stdout.write(response.data.content);
  },
});
