import { bodyVerb } from '../../core/rest.js';
import { CONFIG_OPTIONS, configFields } from './fields.js';

export const create = bodyVerb({
  name: 'create',
  summary: 'Trust an OIDC issuer: its ID tokens may be exchanged for access tokens (createOidcTokenConfig)',
  method: 'POST',
  path: () => '/api/v1/oidc-token-configs',
  options: CONFIG_OPTIONS,
  fields: (o) => configFields(o),
  required: [
    ['name', '--name'],
    ['issuer', '--issuer'],
    ['audiences', '--audience'],
  ],
  done: (_a, data) => `Created OIDC token config ${data?.id}`,
  examples: ['plinth oidc create --name okta --issuer https://acme.okta.com --audience plinth --algorithm RS256'],
});
