import { bodyVerb, id } from '../../../core/rest.js';
import { llmFields, llmOptions } from './fields.js';

export const update = bodyVerb({
  name: 'update',
  summary: 'Change an LLM endpoint (updateAgentLlm)',
  description: 'Fields left out keep their value; -d \'{"apiKey": null}\' removes the stored key.',
  method: 'PUT',
  args: ['<llm_id>'],
  path: ([l]) => `/api/v1/agent-llms/${id(l, 'llm_id')}`,
  options: llmOptions,
  fields: llmFields,
});
