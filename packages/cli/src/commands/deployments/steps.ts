import type { Ok } from '@plinth/api-client';
import { defineVerb, type Verb } from '../../core/define.js';
import { id } from '../../core/rest.js';

/** advance-step and reset-step differ only in their path and help. */
function stepVerb(name: 'advance-step' | 'reset-step', summary: string): Verb {
  return defineVerb({
    name,
    summary,
    args: ['<deployment_id>'],
    async run(f, [deploymentId]) {
      const client = await f.client();
      const response = await client.request<
        Ok<'/api/v1/deployments/{deploymentId}/advance-step' | '/api/v1/deployments/{deploymentId}/reset-step', 'post'>
      >('POST', `/api/v1/deployments/${id(deploymentId, 'deployment_id')}/${name}`, {
        body: {},
      });
      if (f.output.json) return f.output.raw(response);
      f.output.data(`Deployment ${deploymentId} is at creation step ${response.data?.creationStep}`);
    },
  });
}

export const advanceStep = stepVerb('advance-step', 'Move a deployment to its next creation step (advanceDeploymentCreationStep)');
export const resetStep = stepVerb('reset-step', 'Start a deployment\'s creation steps again at "project" (resetDeploymentCreationStep)');
