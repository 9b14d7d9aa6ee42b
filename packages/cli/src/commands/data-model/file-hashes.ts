import type { Ok } from '@plinth/api-client';
import { defineVerb } from '../../core/define.js';
import { BRANCH_OPTION, modelPath } from './common.js';

export const fileHashes = defineVerb({
  name: 'file-hashes',
  summary: 'Show the SHA-256 of every file of a branch (getDataModelFileHashes)',
  args: ['<deployment_id>'],
  options: BRANCH_OPTION,
  async run(f, [deploymentId], opts) {
    const client = await f.client();
    const response = await client.request<Ok<'/build/api/v1/deployments/{deploymentId}/file-hashes', 'get'>>(
      'GET',
      modelPath(deploymentId, '/file-hashes'),
      {
        query: { branch: opts.branch },
      },
    );
    if (f.output.json) return f.output.raw(response);
    const items = Object.entries(response.data.hashes).map(([path, hash]) => ({ path, hash }));
    f.output.list({ ...response, data: { items } }, [
      ['Path', 'path'],
      ['Hash', 'hash'],
    ]);
  },
});
