import { getVerb, id } from '../../core/rest.js';

export const get = getVerb({
  summary: 'Show one deployment (getDeployment)',
  args: ['<deployment_id>'],
  path: ([deploymentId]) => `/api/v1/deployments/${id(deploymentId, 'deployment_id')}`,
});
