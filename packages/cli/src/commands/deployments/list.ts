import { listVerb } from '../../core/rest.js';
import { deploymentColumns } from './columns.js';

export const list = listVerb({
  summary: 'List deployments (getDeployments)',
  path: () => '/api/v1/deployments',
  columns: deploymentColumns,
});
