import { bool } from '../../core/body.js';
import { id, listVerb } from '../../core/rest.js';
import { AGENT_COLUMNS } from './fields.js';

export const list = listVerb({
  summary: 'List the agents of a deployment (getAgents)',
  args: ['<deployment_id>'],
  paged: false,
  options: [{ flags: '--allow-embedding <bool>', description: 'Only agents that embedded pages may (true) or may not (false) use' }],
  path: ([d]) => `/api/v1/deployments/${id(d, 'deployment_id')}/agents`,
  query: (o) => ({ allowEmbedding: bool(o.allowEmbedding, '--allow-embedding') }),
  columns: AGENT_COLUMNS,
});
