import type { Schema } from '@plinth/api-client';
import { defineVerb } from '../../core/define.js';
import { environmentPath } from './shared.js';

export const rotateSqlPassword = defineVerb({
  name: 'rotate-sql-password',
  summary: "Give an environment's SQL API user a new password (rotateDeploymentEnvironmentSqlPassword)",
  description:
    'Prints the new password alone, so it can be captured. New connections with the old password are refused at once; sessions already open stay open until they end.',
  args: ['<deployment_id>', '<environment_id>'],
  examples: ['plinth environments rotate-sql-password 1 7'],
  async run(f, [deploymentId, environmentId]) {
    const client = await f.client();
    const path = `${environmentPath(deploymentId, environmentId)}/sql-credentials/rotate`;
    const response = await client.request<Schema<'DeploymentEnvironmentSqlCredentialResponse'>>('POST', path);
    if (f.output.json) return f.output.raw(response);
    f.output.data(response.data.data.password ?? '');
  },
});
