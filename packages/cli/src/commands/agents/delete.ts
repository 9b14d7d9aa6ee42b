import { deleteVerb, id } from '../../core/rest.js';

export const remove = deleteVerb({
  summary: 'Delete an agent (deleteAgent)',
  args: ['<deployment_id>', '<agent_id>'],
  path: ([d, a]) => `/api/v1/deployments/${id(d, 'deployment_id')}/agents/${id(a, 'agent_id')}`,
  what: ([, a]) => `agent ${a}`,
});
