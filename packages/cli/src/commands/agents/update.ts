import { bodyVerb, id } from '../../core/rest.js';
import { agentFields, agentOptions } from './fields.js';

export const update = bodyVerb({
  name: 'update',
  summary: 'Change an agent (updateAgent)',
  description: 'Fields left out keep their value; --views replaces the list.',
  method: 'PUT',
  args: ['<deployment_id>', '<agent_id>'],
  path: ([d, a]) => `/api/v1/deployments/${id(d, 'deployment_id')}/agents/${id(a, 'agent_id')}`,
  options: agentOptions,
  fields: agentFields,
  examples: ['plinth agents update 3 7 --views sales,orders_view', 'plinth agents update 3 7 --llm none'],
});
