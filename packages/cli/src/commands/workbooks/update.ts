import type { Ok } from '@plinth/api-client';
import { defineVerb } from '../../core/define.js';
import { UsageError } from '../../core/errors.js';
import { workbookBody, workbookOptions } from './fields.js';
import { workbookPath } from './paths.js';
import { workbookFields } from './show.js';

export const update = defineVerb({
  name: 'update',
  summary: 'Rename, move or change the calculated fields of a workbook (updateWorkbook)',
  description:
    'Only what you give changes. --calculated-fields replaces the whole set ({} removes them all); --folder root moves it to the root.',
  args: ['<deployment_id>', '<workbook_id>'],
  options: workbookOptions,
  examples: ['plinth workbooks update 3 12 --name "Sales 2025"', 'plinth workbooks update 3 12 --folder root'],
  async run(f, args, opts) {
    const body = await workbookBody(f.io, opts);
    if (Object.keys(body).length === 0) throw new UsageError('nothing to change: give --name, --folder, --calculated-fields or -d');
    const client = await f.client();
    const response = await client.request<Ok<'/api/v1/deployments/{deploymentId}/workbooks/{workbookId}', 'put'>>(
      'PUT',
      workbookPath(args),
      { body },
    );
    if (f.output.json) return f.output.raw(response);
    f.output.status(`Updated workbook ${args[1]}`);
    f.output.object(response, workbookFields);
  },
});
