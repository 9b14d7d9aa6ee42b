import type { Ok } from '@plinth/api-client';
import { defineVerb } from '../../core/define.js';
import { workbookPath } from './paths.js';
import { workbookFields } from './show.js';

export const duplicate = defineVerb({
  name: 'duplicate',
  summary: 'Copy a workbook, its reports and dashboard draft, as "<name> (copy)" (duplicateWorkbook)',
  description: 'The copy is yours; the published dashboard is not copied.',
  args: ['<deployment_id>', '<workbook_id>'],
  async run(f, args) {
    const client = await f.client();
    const response = await client.request<Ok<'/api/v1/deployments/{deploymentId}/workbooks/{workbookId}/duplicate', 'post'>>(
      'POST',
      `${workbookPath(args)}/duplicate`,
    );
    if (f.output.json) return f.output.raw(response);
    f.output.status(`Created workbook ${response.data.id} (${String(response.data.name)})`);
    f.output.object(response, workbookFields);
  },
});
