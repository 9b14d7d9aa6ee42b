import { bodyVerb, id } from '../../core/rest.js';

export const refresh = bodyVerb({
  name: 'refresh',
  summary: "Refresh one of your OAuth tokens at its integration's token endpoint (refreshUserOAuthToken)",
  method: 'POST',
  args: ['<id>'],
  path: ([i]) => `/api/v1/user-oauth-tokens/${id(i)}/refresh`,
  optionalBody: true,
  done: ([i]) => `Refreshed OAuth token ${i}`,
});
