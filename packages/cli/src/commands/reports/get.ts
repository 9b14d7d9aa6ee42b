import { getVerb } from '../../core/rest.js';
import { reportFields, reportsPath } from './fields.js';

export const get = getVerb({
  summary: 'Show one report with its last refresh (getReport); --json includes the snapshot',
  args: ['<deployment_id>', '<report_id>'],
  path: ([deploymentId, reportId]) => reportsPath(deploymentId, reportId),
  fields: reportFields,
});
