import { deleteVerb, id } from '../../core/rest.js';

export const remove = deleteVerb({
  summary: 'Delete a deployment with its branches, files, builds, logs and embedded warehouse (deleteDeployment)',
  args: ['<deployment_id>'],
  path: ([deploymentId]) => `/api/v1/deployments/${id(deploymentId, 'deployment_id')}`,
  what: ([deploymentId]) => `deployment ${deploymentId}`,
});
