import { getVerb } from '../../core/rest.js';

export const settings = getVerb({
  name: 'settings',
  summary: 'Show the AI engineer settings and a short-lived token of yours (getAIEngineerSettings)',
  args: [],
  path: () => '/api/v1/ai-engineer/settings',
  fields: [
    ['URL', 'url'],
    ['Token', 'token'],
    ['Expires', 'expiresAt'],
    ['Agents on', 'enabled'],
    ['Token lifetime (s)', 'tokenTtlSeconds'],
  ],
});
