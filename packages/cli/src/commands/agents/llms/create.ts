import { bodyVerb } from '../../../core/rest.js';
import { llmFields, llmOptions } from './fields.js';

export const create = bodyVerb({
  name: 'create',
  summary: 'Add an OpenAI-compatible LLM endpoint (createAgentLlm)',
  method: 'POST',
  path: () => '/api/v1/agent-llms',
  options: llmOptions,
  fields: llmFields,
  required: [
    ['name', '--name'],
    ['baseUrl', '--base-url'],
    ['model', '--model'],
  ],
  done: (_a, data) => `Created LLM endpoint ${data?.id}`,
  examples: ['plinth agents llms create --name vllm --base-url https://llm.internal/v1 --model qwen2.5 -d @key.json'],
});
