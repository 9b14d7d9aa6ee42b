import { deleteVerb } from '../../core/rest.js';
import { connectionPath } from './common.js';

export const disconnect = deleteVerb({
  name: 'disconnect',
  summary: 'Disconnect a deployment from its repository; the imported files stay (disconnectGithub)',
  args: ['<deployment_id>'],
  path: ([deploymentId]) => connectionPath(deploymentId),
  what: ([deploymentId]) => `the GitHub connection of deployment ${deploymentId}`,
});
