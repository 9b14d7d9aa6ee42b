import { bool, int } from '../../core/body.js';
import { defineOptions } from '../../core/define.js';
import { bodyVerb } from '../../core/rest.js';

const options = defineOptions([
  { flags: '--enabled <bool>', description: "Whether the account's users may use agents (true or false)" },
  { flags: '--token-ttl <seconds>', description: 'Lifetime of the tokens `plinth ai settings` issues (60 to 3600)' },
]);

export const settingsSet = bodyVerb({
  name: 'settings-set',
  summary: 'Change the AI engineer settings of the account (updateAIEngineerSettings)',
  method: 'PUT',
  path: () => '/api/v1/ai-engineer/settings',
  options,
  fields: (o) => ({ enabled: bool(o.enabled, '--enabled'), tokenTtlSeconds: int(o.tokenTtl, '--token-ttl') }),
  examples: ['plinth ai settings-set --enabled false', 'plinth ai settings-set --token-ttl 300'],
});
