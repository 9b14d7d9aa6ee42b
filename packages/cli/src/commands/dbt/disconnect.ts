import { deleteVerb } from '../../core/rest.js';
import { dbtPath } from './common.js';

export const disconnect = deleteVerb({
  name: 'disconnect',
  summary: "Remove a deployment's dbt integration; past syncs and their branches stay (disconnectDbt)",
  args: ['<deployment_id>'],
  path: ([deploymentId]) => dbtPath(deploymentId),
  what: ([deploymentId]) => `the dbt integration of deployment ${deploymentId}`,
});
