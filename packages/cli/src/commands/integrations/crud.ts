import { defineOptions, type OptionsOf } from '../../core/define.js';
import { bodyVerb, deleteVerb, getVerb, id, listVerb } from '../../core/rest.js';

const options = defineOptions([
  { flags: '--name <name>', description: 'Name' },
  { flags: '--type <type>', description: 'Provider type, e.g. snowflake' },
  { flags: '--auth-url <url>', description: 'Authorization URL' },
  { flags: '--token-url <url>', description: 'Token URL' },
  { flags: '--client-id <id>', description: 'Client id' },
  { flags: '--client-secret <secret>', description: 'Client secret (stored encrypted, never shown again)' },
  { flags: '--redirect-uri <url>', description: 'Redirect URI' },
]);
const fields = (o: OptionsOf<typeof options>) => ({
  name: o.name,
  type: o.type,
  authUrl: o.authUrl,
  tokenUrl: o.tokenUrl,
  clientId: o.clientId,
  clientSecret: o.clientSecret,
  redirectUri: o.redirectUri,
});

export const list = listVerb({
  summary: 'List OAuth integrations (listOAuthIntegrations)',
  path: () => '/api/v1/oauth-integrations',
  columns: [
    ['ID', 'id'],
    ['Name', 'name'],
    ['Type', 'type'],
    ['Client ID', 'clientId'],
    ['Redirect URI', 'redirectUri'],
  ],
});
export const get = getVerb({
  summary: 'Show one OAuth integration (getOAuthIntegration)',
  path: ([i]) => `/api/v1/oauth-integrations/${id(i)}`,
});
export const create = bodyVerb({
  name: 'create',
  summary: 'Create an OAuth integration (createOAuthIntegration)',
  method: 'POST',
  path: () => '/api/v1/oauth-integrations',
  options,
  fields,
  done: (_a, data) => `Created OAuth integration ${data?.id}`,
});
export const update = bodyVerb({
  name: 'update',
  summary: 'Change an OAuth integration (updateOAuthIntegration)',
  method: 'PATCH',
  args: ['<id>'],
  path: ([i]) => `/api/v1/oauth-integrations/${id(i)}`,
  options,
  fields,
});
export const remove = deleteVerb({
  summary: 'Delete an OAuth integration (deleteOAuthIntegration)',
  path: ([i]) => `/api/v1/oauth-integrations/${id(i)}`,
  what: ([i]) => `OAuth integration ${i}`,
});
