import { workspaceListVerb } from './listing.js';

export const shared = workspaceListVerb({
  name: 'shared',
  summary: 'List the folders, workbooks and reports others created that you may read (sharedWorkspaceObjects)',
  segment: 'shared-workspace',
});
