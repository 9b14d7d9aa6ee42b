import { getVerb } from '../../core/rest.js';
import { connectionFields, connectionPath } from './common.js';

export const show = getVerb({
  name: 'show',
  summary: "Show a deployment's GitHub connection and its last import (getGithubConnection)",
  args: ['<deployment_id>'],
  path: ([deploymentId]) => connectionPath(deploymentId),
  fields: connectionFields,
});
