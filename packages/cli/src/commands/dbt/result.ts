import type { Ok } from '@plinth/api-client';
import { defineVerb } from '../../core/define.js';
import { formatObject, formatTable } from '../../core/output.js';
import { fileColumns, syncPath } from './common.js';

export const result = defineVerb({
  name: 'result',
  summary: 'Show the terminal result of a dbt sync: status, generated branch, error and files (getDbtSyncResult)',
  args: ['<deployment_id>', '<sync_job_id>'],
  async run(f, [deploymentId, syncJobId]) {
    const response = await (
      await f.client()
    ).request<Ok<'/build/api/v1/deployments/{deploymentId}/dbt/syncs/{syncJobId}/result', 'get'>>(
      'GET',
      syncPath(deploymentId, syncJobId, '/result'),
    );
    if (f.output.json) return f.output.raw(response);
    const { files, ...rest } = response.data;
    f.output.data(
      formatObject(rest, [
        ['Sync', 'syncJobId'],
        ['Status', 'status'],
        ['Branch', 'branchName'],
        ['Build', 'buildId'],
        ['Error', 'error'],
      ]),
    );
    if (files.length > 0) f.output.data(formatTable(fileColumns, files));
  },
});
