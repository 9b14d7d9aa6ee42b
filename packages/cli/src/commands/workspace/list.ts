import { workspaceListVerb } from './listing.js';

export const list = workspaceListVerb({
  name: 'list',
  summary: 'List your own folders, workbooks and reports in a deployment (workspaceObjects)',
  segment: 'workspace',
});
