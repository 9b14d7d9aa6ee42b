import { getVerb } from '../../core/rest.js';

export const region = getVerb({
  name: 'region',
  summary: 'Show your active agent region (getMyActiveAgentRegion)',
  args: [],
  path: () => '/api/v1/ai-engineer/active-region',
});
