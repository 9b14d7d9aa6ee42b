import type { Ok } from '@plinth/api-client';
import { positiveInt } from '../../core/body.js';
import { defineVerb } from '../../core/define.js';
import { metaLines } from '../meta/meta.js';

/**
 * getMetadata, read as your user (your groups and attributes apply the model's access policies).
 * `plinth meta` is the data API's meta with a minted token; this one needs no token of the data API.
 */
export const verb = defineVerb({
  name: 'metadata',
  summary: "Print the cubes, views and members of a deployment's current build that you may see (getMetadata)",
  options: [
    { flags: '-s, --selector <name>', description: 'A cube or view name, cube.member, or * (repeatable; * when none)', repeatable: true },
    { flags: '--deployment <id>', description: "The deployment (the account's first one when left out)" },
  ],
  examples: ['plinth metadata', 'plinth metadata --deployment 3 -s orders -s customers.name', 'plinth metadata -s sales --json'],
  async run(f, _args, opts) {
    const selectors = opts.selector && opts.selector.length > 0 ? opts.selector : ['*'];
    const deploymentId = opts.deployment === undefined ? undefined : positiveInt(opts.deployment, '--deployment');
    const client = await f.client();
    const response = await client.request<Ok<'/api/v1/meta', 'post'>>('POST', '/api/v1/meta', { body: { selectors, deploymentId } });
    if (f.output.json) return f.output.raw(response);
    f.output.data(`deployment ${response.data.deploymentId}\n\n${metaLines(response.data.cubes)}`);
  },
});
