import { readFile } from 'node:fs/promises';
import type { Ok } from '@plinth/api-client';
import { defineVerb } from '../../core/define.js';
import { UsageError } from '../../core/errors.js';
import { BRANCH_OPTION, branchField, modelPath } from './common.js';

export const put = defineVerb({
  name: 'put',
  summary: 'Create or replace a file on your dev-mode branch from a local file (putDataModelFile)',
  args: ['<deployment_id>', '<path>'],
  options: [
    { flags: '--file <local>', description: 'The local file whose content to store', required: true },
    ...BRANCH_OPTION,
    { flags: '-m, --message <message>', description: 'Commit message' },
  ],
  examples: ['plinth data-model put 1 model/cubes/orders.yml --file ./model/cubes/orders.yml'],
  async run(f, [deploymentId, path], opts) {
    let content: string;
    try {
      content = await readFile(opts.file, 'utf8');
    } catch (error) {
      throw new UsageError(`Cannot read ${opts.file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
    const client = await f.client();
    const body = { path, content, ...branchField(opts.branch), ...(opts.message === undefined ? {} : { message: opts.message }) };
    const response = await client.request<Ok<'/build/api/v1/deployments/{deploymentId}/files/content', 'put'>>(
      'PUT',
      modelPath(deploymentId, '/files/content'),
      { body },
    );
    const data = response.data;
    f.output.status(
      data.changed ? `Stored ${path} on ${data.branchName} (commit ${data.commitId})` : `${path} is unchanged on ${data.branchName}`,
    );
    f.output.object(response);
  },
});
