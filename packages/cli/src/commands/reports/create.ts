import { bodyVerb } from '../../core/rest.js';
import { REPORT_OPTIONS, reportBody, reportFields, reportsPath } from './fields.js';

export const create = bodyVerb({
  name: 'create',
  summary: 'Create a report: a saved Cube query or SQL query (createReport)',
  description:
    'Private to you until shared with a resource policy. In a folder it needs FolderEdit there, in a workbook WorkbookEdit. pivotItems, meta and publicId go in -d.',
  method: 'POST',
  args: ['<deployment_id>'],
  path: ([deploymentId]) => reportsPath(deploymentId),
  options: REPORT_OPTIONS,
  fields: reportBody,
  show: reportFields,
  done: (_args, data) => `Created report ${data?.id}`,
  examples: [
    `plinth reports create 1 --name "Orders by status" --json-query '{"measures":["orders.count"],"dimensions":["orders.status"]}'`,
    `plinth reports create 1 --name Customers --sql-query "SELECT country, MEASURE(count) FROM customers GROUP BY 1"`,
  ],
});
