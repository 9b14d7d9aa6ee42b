import { defineOptions, type OptionsOf } from '../../../core/define.js';

/** Flags of createAgentLlm and updateAgentLlm; -d carries the same fields (`-d @llm.json` keeps a key out of shell history). */
export const llmOptions = defineOptions([
  { flags: '--name <name>', description: 'Name, unique in the account' },
  { flags: '--base-url <url>', description: 'Base URL of the OpenAI-compatible API (http or https)' },
  { flags: '--model <name>', description: 'Model name to ask the endpoint for' },
  { flags: '--api-key <key>', description: 'API key (stored sealed, never shown again)' },
]);

export const llmFields = (o: OptionsOf<typeof llmOptions>) => ({ name: o.name, baseUrl: o.baseUrl, model: o.model, apiKey: o.apiKey });

export const LLM_COLUMNS: Array<[string, string]> = [
  ['ID', 'id'],
  ['Name', 'name'],
  ['Base URL', 'config.baseUrl'],
  ['Model', 'config.model'],
  ['Has key', 'hasApiKey'],
];
