import { bool, positiveInt } from '../../core/body.js';
import { defineOptions, type OptionsOf } from '../../core/define.js';
import { UsageError } from '../../core/errors.js';

/** Flags of createAgent and updateAgent; -d carries the same fields as JSON. */
export const agentOptions = defineOptions([
  { flags: '--name <name>', description: 'Name, unique in the deployment' },
  { flags: '--views <names>', description: 'Comma-separated views of the current build the agent may use ("" for none)' },
  { flags: '--llm <id>', description: 'LLM endpoint id (see `plinth agents llms list`), or "none"' },
  { flags: '--allow-embedding <bool>', description: 'Whether embedded pages may use the agent (true or false)' },
  { flags: '--config <json>', description: 'Free-form settings as a JSON object (instructions, ...), or "null"' },
]);

export const agentFields = (o: OptionsOf<typeof agentOptions>) => ({
  name: o.name,
  accessibleViews:
    o.views === undefined
      ? undefined
      : o.views
          .split(',')
          .map((v) => v.trim())
          .filter((v) => v !== ''),
  agentLlmId: o.llm === undefined ? undefined : o.llm === 'none' ? null : positiveInt(o.llm, '--llm'),
  allowEmbedding: bool(o.allowEmbedding, '--allow-embedding'),
  config: o.config === undefined ? undefined : jsonObject(o.config, '--config'),
});

function jsonObject(text: string, flag: string): Record<string, unknown> | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new UsageError(`${flag} expects a JSON object, got "${text}"`);
  }
  if (value !== null && (typeof value !== 'object' || Array.isArray(value))) throw new UsageError(`${flag} expects a JSON object or null`);
  return value as Record<string, unknown> | null;
}

/** Columns of an agent in tables and `get`-like output. */
export const AGENT_COLUMNS: Array<[string, string]> = [
  ['ID', 'id'],
  ['Name', 'name'],
  ['Views', 'accessibleViews'],
  ['LLM', 'agentLlmId'],
  ['Embedding', 'allowEmbedding'],
];
