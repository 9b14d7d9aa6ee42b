import { getVerb } from '../../core/rest.js';
import { workbookPath } from './paths.js';

export const get = getVerb({
  summary: 'Show a workbook with its dashboard draft and published dashboard (getWorkbook)',
  args: ['<deployment_id>', '<workbook_id>'],
  path: workbookPath,
});
