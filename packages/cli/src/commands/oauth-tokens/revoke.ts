import { deleteVerb, id } from '../../core/rest.js';

export const revoke = deleteVerb({
  name: 'revoke',
  summary: 'Revoke one of your OAuth tokens, at the provider too when it can (deleteUserOAuthToken)',
  path: ([i]) => `/api/v1/user-oauth-tokens/${id(i)}`,
  what: ([i]) => `OAuth token ${i} (revoked)`,
});
