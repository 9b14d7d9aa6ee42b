import { listVerb } from '../../../core/rest.js';
import { LLM_COLUMNS } from './fields.js';

export const list = listVerb({
  summary: 'List the LLM endpoints of the account (getAgentLlms)',
  paged: false,
  path: () => '/api/v1/agent-llms',
  columns: LLM_COLUMNS,
});
