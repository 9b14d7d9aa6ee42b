import { defineVerb } from '../../core/define.js';
import { CliError } from '../../core/errors.js';
import type { SyncStatus } from './common.js';
import { seconds, statusText, syncPath, waitForSync } from './common.js';
import { finish } from './finish.js';

export const status = defineVerb({
  name: 'status',
  summary: 'Show a dbt sync stage by stage; --wait follows it until it has finished (getDbtSyncStatus)',
  args: ['<deployment_id>', '<sync_job_id>'],
  options: [
    { flags: '--wait', description: 'Poll until COMPLETED, FAILED or CANCELLED, printing each stage; exit 1 unless COMPLETED' },
    { flags: '--interval <seconds>', description: 'Seconds between polls with --wait (default 2)' },
  ],
  examples: ['plinth dbt status 3 12 --wait'],
  async run(f, [deploymentId, syncJobId], opts) {
    const path = syncPath(deploymentId, syncJobId);
    const interval = seconds(opts.interval, 2);
    if (opts.wait) {
      const done = await waitForSync(f, path, interval);
      finish(f, done);
      if (done.status !== 'COMPLETED') throw new CliError(`dbt sync ${syncJobId} ${done.status}${done.error ? `: ${done.error}` : ''}`);
      return;
    }
    const response = await (await f.client()).request<SyncStatus>('GET', path);
    if (f.output.json) return f.output.raw(response);
    f.output.data(statusText(response.data));
  },
});
