import { id, listVerb } from '../../core/rest.js';
import { variableColumns, variablesPath } from './columns.js';

export const list = listVerb({
  summary: "List a deployment's environment variables, secrets masked (getDeploymentVariables)",
  args: ['<deployment_id>'],
  paged: false,
  path: ([deploymentId]) => variablesPath(id(deploymentId, 'deployment_id')),
  columns: variableColumns,
});
