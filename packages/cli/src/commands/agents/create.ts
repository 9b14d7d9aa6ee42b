import { bodyVerb, id } from '../../core/rest.js';
import { agentFields, agentOptions } from './fields.js';

export const create = bodyVerb({
  name: 'create',
  summary: 'Create an agent in a deployment (createAgent)',
  description: "Views must be views of the deployment's current build; the LLM an endpoint of the account.",
  method: 'POST',
  args: ['<deployment_id>'],
  path: ([d]) => `/api/v1/deployments/${id(d, 'deployment_id')}/agents`,
  options: agentOptions,
  fields: agentFields,
  required: [['name', '--name']],
  done: (_a, data) => `Created agent ${data?.id}`,
  examples: ['plinth agents create 3 --name "Sales helper" --views sales --llm 1 --allow-embedding true'],
});
