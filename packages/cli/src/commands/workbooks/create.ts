import type { Ok } from '@plinth/api-client';
import { defineVerb } from '../../core/define.js';
import { workbookBody, workbookOptions } from './fields.js';
import { workbooksPath } from './paths.js';
import { workbookFields } from './show.js';

export const create = defineVerb({
  name: 'create',
  summary: 'Create a workbook, private to you until shared (createWorkbook)',
  args: ['<deployment_id>'],
  options: workbookOptions,
  examples: [
    'plinth workbooks create 3 --name Sales --folder 7',
    `plinth workbooks create 3 --name Sales --calculated-fields '{"margin":{"sql":"revenue - cost","type":"number"}}'`,
  ],
  async run(f, [deploymentId], opts) {
    const body = await workbookBody(f.io, opts);
    const client = await f.client();
    const response = await client.request<Ok<'/api/v1/deployments/{deploymentId}/workbooks', 'post'>>('POST', workbooksPath(deploymentId), {
      body,
    });
    if (f.output.json) return f.output.raw(response);
    f.output.status(`Created workbook ${response.data.id}`);
    f.output.object(response, workbookFields);
  },
});
