import { bodyVerb } from '../../core/rest.js';

export const regionSet = bodyVerb({
  name: 'region-set',
  summary: 'Choose your active agent region (updateMyActiveAgentRegion)',
  method: 'PUT',
  args: ['<region>'],
  path: () => '/api/v1/ai-engineer/active-region',
  fields: (_o, [regionName]) => ({ regionName }),
  examples: ['plinth ai region-set eu-west'],
});
