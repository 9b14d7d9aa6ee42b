import { deleteVerb } from '../../core/rest.js';
import { workbookPath } from './paths.js';

export const remove = deleteVerb({
  summary: 'Delete a workbook with its reports and dashboard (deleteWorkbook)',
  args: ['<deployment_id>', '<workbook_id>'],
  path: workbookPath,
  what: ([, workbookId]) => `workbook ${workbookId} with its reports and dashboard`,
});
