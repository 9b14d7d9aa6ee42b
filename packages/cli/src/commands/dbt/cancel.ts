import { defineVerb } from '../../core/define.js';
import { summaryLine, syncPath, type SyncStatus } from './common.js';

export const cancel = defineVerb({
  name: 'cancel',
  summary: 'Cancel a dbt sync: it stops at its next stage and leaves no branch (cancelDbtSync)',
  args: ['<deployment_id>', '<sync_job_id>'],
  async run(f, [deploymentId, syncJobId]) {
    const response = await (await f.client()).request<SyncStatus>('POST', syncPath(deploymentId, syncJobId, '/cancel'), { body: {} });
    if (f.output.json) return f.output.raw(response);
    f.output.data(summaryLine(response.data));
  },
});
