import { deleteVerb } from '../../core/rest.js';
import { reportsPath } from './fields.js';

export const remove = deleteVerb({
  summary: 'Delete a report (deleteReport)',
  args: ['<deployment_id>', '<report_id>'],
  path: ([deploymentId, reportId]) => reportsPath(deploymentId, reportId),
  what: ([, reportId]) => `report ${reportId}`,
});
