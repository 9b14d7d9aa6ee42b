import { defineVerb } from '../../core/define.js';
import { pageOptions, pageQuery } from '../../core/rest.js';
import { BRANCH_OPTION, modelPath } from './common.js';

export const log = defineVerb({
  name: 'log',
  summary: "List a branch's commits, newest first (getDataModelCommits)",
  args: ['<deployment_id>'],
  options: [...BRANCH_OPTION, ...pageOptions()],
  async run(f, [deploymentId], opts) {
    const client = await f.client();
    const response = await client.request('GET', modelPath(deploymentId, '/commits'), {
      query: { branch: opts.branch, ...pageQuery(opts) },
    });
    f.output.list(response, [
      ['Id', 'id'],
      ['Message', 'message'],
      ['Author', (row) => (row.author.kind === 'system' ? 'system' : `${row.author.kind}:${row.author.credentialId}`)],
      ['Created', 'createdAt'],
    ]);
  },
});
