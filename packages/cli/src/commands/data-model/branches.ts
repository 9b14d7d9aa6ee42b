import { defineVerb } from '../../core/define.js';
import type { Column } from '../../core/output.js';
import { modelPath } from './common.js';

export const branchColumns: Column[] = [
  ['Name', 'name'],
  ['Kind', 'kind'],
  ['Default', 'isDefault'],
  ['Dev mode', 'devMode'],
  ['Always active', 'alwaysActive'],
  ['Forked from', 'forkedFrom'],
  ['Head', 'headCommitId'],
  ['Updated', 'updatedAt'],
];

export const branches = defineVerb({
  name: 'branches',
  summary: 'List the shared branches and your dev-mode branches (getDataModelBranches)',
  args: ['<deployment_id>'],
  async run(f, [deploymentId]) {
    const client = await f.client();
    f.output.list(await client.request('GET', modelPath(deploymentId, '/branches')), branchColumns);
  },
});
