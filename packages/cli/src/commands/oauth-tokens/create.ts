import { positiveInt } from '../../core/body.js';
import { bodyVerb } from '../../core/rest.js';

export const create = bodyVerb({
  name: 'create',
  summary: "Exchange an authorization code at an OAuth integration's token endpoint and keep the tokens (createUserOAuthToken)",
  description:
    "The code is what the provider sent to the integration's redirectUri. The server runs the grant with the integration's client and keeps the tokens encrypted; they are never shown.",
  method: 'POST',
  path: () => '/api/v1/user-oauth-tokens',
  options: [
    { flags: '--integration <id>', description: 'The OAuth integration the code was issued through' },
    { flags: '--code <code>', description: 'The authorization code' },
    { flags: '--code-verifier <verifier>', description: 'The PKCE code verifier of the authorization request' },
  ],
  fields: (o) => ({
    integrationId: o.integration === undefined ? undefined : positiveInt(o.integration, '--integration'),
    code: o.code,
    codeVerifier: o.codeVerifier,
  }),
  required: [
    ['integrationId', '--integration'],
    ['code', '--code'],
  ],
  done: (_a, data) => `Created OAuth token ${data?.id}`,
  examples: ['plinth oauth-tokens create --integration 2 --code "$CODE" --code-verifier "$VERIFIER"'],
});
