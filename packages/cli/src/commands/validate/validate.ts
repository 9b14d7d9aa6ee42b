import type { Ok } from '@plinth/api-client';
import { defineVerb } from '../../core/define.js';
import { CliError } from '../../core/errors.js';
import { id } from '../../core/rest.js';
import { errorLine } from '../deployments/build-lines.js';
import { counted } from '../../core/counted.js';

export const verb = defineVerb({
  name: 'validate',
  summary: "Compile a branch's data model and print the compiler's errors; exit 1 when invalid (validateDataModel)",
  args: ['<deployment_id>'],
  options: [
    {
      flags: '--branch <name>',
      description: "Branch (default: your dev-mode branch if a session is open, else main; '' counts as omitted)",
    },
    { flags: '--dev-mode', description: 'Validate your dev-mode branch and record the result as its build' },
  ],
  examples: ['plinth validate 12', 'plinth validate 12 --dev-mode --json'],
  async run(f, [deploymentId], opts) {
    const client = await f.client();
    const body = { ...(opts.branch === undefined ? {} : { branch: opts.branch }), ...(opts.devMode ? { devMode: true } : {}) };
    const path = `/build/api/v1/deployments/${id(deploymentId, 'deployment_id')}/validate`;
    const response = await client.request<Ok<'/build/api/v1/deployments/{deploymentId}/validate', 'post'>>('POST', path, { body });
    const result = response.data;
    if (f.output.json) f.output.raw(response);
    else if (result.valid) f.output.data(`Valid: ${counted(result.cubesCount, 'cube')}`);
    else f.output.data(result.errors.map(errorLine).join('\n'));
    if (!result.valid) {
      throw new CliError(
        `The data model of branch ${result.branchName} at commit ${result.commitId} has ${counted(result.errors.length, 'error')}`,
      );
    }
  },
});
