import { bodyVerb } from '../../core/rest.js';

export const create = bodyVerb({
  name: 'create',
  summary: 'Create a deployment (createDeployment)',
  method: 'POST',
  path: () => '/api/v1/deployments',
  options: [
    { flags: '--name <name>', description: 'Name of the deployment' },
    { flags: '--region <region>', description: 'Region' },
  ],
  fields: (opts) => ({ name: opts.name, region: opts.region }),
  required: [['name', '--name']],
  done: (_args, data) => `Created deployment ${data?.id}`,
  examples: ['plinth deployments create --name analytics', `plinth deployments create -d '{"name": "analytics", "region": "eu"}'`],
});
