import { defineVerb } from '../../core/define.js';
import { BRANCH_OPTION, modelPath } from './common.js';

export const list = defineVerb({
  name: 'list',
  aliases: ['ls'],
  summary: "List a branch's data model files (listDataModelFiles)",
  args: ['<deployment_id>'],
  options: BRANCH_OPTION,
  async run(f, [deploymentId], opts) {
    const client = await f.client();
    const response = await client.request('GET', modelPath(deploymentId, '/files'), { query: { branch: opts.branch } });
    f.output.list(response, [
      ['Path', 'path'],
      ['Size', 'size'],
      ['Hash', 'hash'],
    ]);
  },
});
