import type { Ok } from '@plinth/api-client';
import { defineVerb } from '../../core/define.js';
import { environmentPath, OFFSET_OPTIONS, offsetQuery, printPage } from './shared.js';

export const tokens = defineVerb({
  name: 'tokens',
  summary: "List an environment's tokens (getDeploymentEnvironmentTokens)",
  args: ['<deployment_id>', '<environment_id>'],
  options: OFFSET_OPTIONS,
  async run(f, [deploymentId, environmentId], opts) {
    const client = await f.client();
    const response = await client.request<Ok<'/api/v1/deployments/{deploymentId}/environments/{environmentId}/tokens', 'get'>>(
      'GET',
      `${environmentPath(deploymentId, environmentId)}/tokens`,
      {
        query: offsetQuery(opts),
      },
    );
    printPage(f, response, [
      ['CREATED', 'created_at'],
      ['EXPIRES', 'expires_at'],
      ['SECURITY CONTEXT', (row) => JSON.stringify(row.security_context)],
      ['TOKEN', 'token'],
    ]);
  },
});
