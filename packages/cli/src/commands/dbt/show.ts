import { getVerb } from '../../core/rest.js';
import { dbtPath, integrationFields } from './common.js';

export const show = getVerb({
  name: 'show',
  summary: "Show a deployment's dbt integration: repository, folder and branch (getDbtIntegration)",
  args: ['<deployment_id>'],
  path: ([deploymentId]) => dbtPath(deploymentId),
  fields: integrationFields,
});
