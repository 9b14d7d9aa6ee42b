import { defineVerb } from '../../core/define.js';
import { formatObject, formatTable } from '../../core/output.js';
import { fileColumns, syncPath, type GeneratedFile } from './common.js';

interface SyncResult {
  syncJobId: number;
  status: string;
  branchName: string | null;
  buildId: number | null;
  error: string | null;
  files: GeneratedFile[];
}

export const result = defineVerb({
  name: 'result',
  summary: 'Show the terminal result of a dbt sync: status, generated branch, error and files (getDbtSyncResult)',
  args: ['<deployment_id>', '<sync_job_id>'],
  async run(f, [deploymentId, syncJobId]) {
    const response = await (await f.client()).request<SyncResult>('GET', syncPath(deploymentId, syncJobId, '/result'));
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
