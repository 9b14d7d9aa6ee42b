import { defineVerb } from '../../core/define.js';
import { enc, id } from '../../core/rest.js';
import { variablesPath } from './columns.js';

export const unset = defineVerb({
  name: 'unset',
  summary: 'Unset environment variables of a deployment and rebuild its deploy branch (deleteDeploymentVariable)',
  description: 'Each name is unset in turn; the first that fails (not set, or needed by the warehouse settings) stops the rest.',
  args: ['<deployment_id>', '<KEY...>'],
  async run(f, [deploymentId, names]) {
    const path = variablesPath(id(deploymentId, 'deployment_id'));
    const client = await f.client();
    for (const name of names as unknown as string[]) {
      await client.request('DELETE', `${path}/${enc(name)}`);
      f.output.status(`Unset ${name}`);
    }
  },
});
