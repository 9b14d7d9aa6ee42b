import { bodyVerb } from '../../core/rest.js';
import { REPORT_OPTIONS, reportBody, reportFields, reportsPath } from './fields.js';

export const update = bodyVerb({
  name: 'update',
  summary: 'Change a report: name, title, query, folder or workbook (updateReport)',
  description: 'Only what is given changes; in -d, null clears a field (switch queries with {"jsonQuery": null, "sqlQuery": "…"}).',
  method: 'PUT',
  args: ['<deployment_id>', '<report_id>'],
  path: ([deploymentId, reportId]) => reportsPath(deploymentId, reportId),
  options: REPORT_OPTIONS,
  fields: reportBody,
  show: reportFields,
  done: ([, reportId]) => `Updated report ${reportId}`,
});
