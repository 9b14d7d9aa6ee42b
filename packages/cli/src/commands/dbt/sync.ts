import type { Ok } from '@plinth/api-client';
import { defineVerb } from '../../core/define.js';
import { CliError } from '../../core/errors.js';
import { checkRef, dbtPath, seconds, syncPath, waitForSync } from './common.js';
import { finish } from './finish.js';

export const sync = defineVerb({
  name: 'sync',
  summary: 'Generate cubes from the dbt project at a branch or tag onto a new branch, and build it (startDbtSync)',
  description:
    "Prints the sync's id; with --wait, each stage as it happens (stderr), then the generated files, exiting non-zero unless the branch was built. With --wait --json, one document: syncJobId, branchName, status, error, files, stages.",
  args: ['<deployment_id>'],
  options: [
    { flags: '--ref <branch|tag>', description: "A branch or tag of the repository (default: the integration's branch); not a commit SHA" },
    { flags: '--wait', description: 'Wait until the generated branch is built (or the sync failed), printing each stage' },
    { flags: '--interval <seconds>', description: 'Seconds between polls with --wait (default 2)' },
  ],
  examples: ['plinth dbt sync 3 --ref feature/orders --wait', 'plinth dbt sync 3 --wait --json'],
  async run(f, [deploymentId], opts) {
    const ref = checkRef(opts.ref);
    const interval = seconds(opts.interval, 2);
    const client = await f.client();
    const response = await client.request<Ok<'/build/api/v1/deployments/{deploymentId}/dbt/syncs', 'post'>>(
      'POST',
      dbtPath(deploymentId, '/syncs'),
      {
        body: ref === undefined ? {} : { ref },
      },
    );
    const { syncJobId } = response.data;
    if (!opts.wait) {
      if (f.output.json) return f.output.raw(response);
      f.output.status(
        `Started dbt sync ${syncJobId} of ${response.data.ref}; follow it with plinth dbt status ${deploymentId} ${syncJobId} --wait`,
      );
      return f.output.data(String(syncJobId));
    }
    f.output.notice(`dbt sync ${syncJobId} of ${response.data.ref} started`);
    const done = await waitForSync(f, syncPath(deploymentId, String(syncJobId)), interval);
    finish(f, done);
    if (done.status !== 'COMPLETED') throw new CliError(`dbt sync ${syncJobId} ${done.status}${done.error ? `: ${done.error}` : ''}`);
  },
});
