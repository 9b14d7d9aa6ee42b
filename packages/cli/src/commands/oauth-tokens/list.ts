import { listVerb } from '../../core/rest.js';

export const list = listVerb({
  summary: 'List your OAuth tokens: metadata only, the tokens stay on the server (getUserOAuthTokens)',
  path: () => '/api/v1/user-oauth-tokens',
  columns: [
    ['ID', 'id'],
    ['Integration', 'integrationId'],
    ['Scopes', 'scopes'],
    ['Expires', 'expiresAt'],
    ['Refreshed', 'refreshedAt'],
    ['Revoked', 'revoked'],
  ],
});
