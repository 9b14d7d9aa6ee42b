import { getVerb, id } from '../../core/rest.js';

export const settings = getVerb({
  name: 'settings',
  summary: "Show a deployment's settings, the engine version and channel in effect included (getDeploymentSettings)",
  args: ['<deployment_id>'],
  path: ([deploymentId]) => `/api/v1/deployments/${id(deploymentId, 'deployment_id')}/settings`,
});
