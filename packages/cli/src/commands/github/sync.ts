import type { Ok } from '@plinth/api-client';
import { defineVerb } from '../../core/define.js';
import { connectionPath } from './common.js';

export const sync = defineVerb({
  name: 'sync',
  summary: "Import the connected branch's head again, as a push would (syncGithub)",
  description: 'Queues a github.import job; plinth github show reports its outcome, and plinth deployments build-status the build.',
  args: ['<deployment_id>'],
  async run(f, [deploymentId]) {
    const client = await f.client();
    const response = await client.request<Ok<'/api/v1/deployments/{deploymentId}/github/sync', 'post'>>(
      'POST',
      `${connectionPath(deploymentId)}/sync`,
    );
    if (f.output.json) return f.output.raw(response);
    const { jobId, queued } = response.data;
    f.output.data(queued ? `Import queued (job ${jobId})` : `An import is already queued or running (job ${jobId})`);
  },
});
