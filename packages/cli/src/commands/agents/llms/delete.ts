import { deleteVerb, id } from '../../../core/rest.js';

export const remove = deleteVerb({
  summary: 'Delete an LLM endpoint no agent calls (deleteAgentLlm)',
  args: ['<llm_id>'],
  path: ([l]) => `/api/v1/agent-llms/${id(l, 'llm_id')}`,
  what: ([l]) => `LLM endpoint ${l}`,
});
