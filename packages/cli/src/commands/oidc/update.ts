import { bodyVerb, id } from '../../core/rest.js';
import { CONFIG_OPTIONS, configFields } from './fields.js';

export const update = bodyVerb({
  name: 'update',
  summary: 'Change an OIDC token config; only the given fields change (updateOidcTokenConfig)',
  method: 'PATCH',
  args: ['<id>'],
  path: ([i]) => `/api/v1/oidc-token-configs/${id(i)}`,
  options: CONFIG_OPTIONS,
  fields: (o) => configFields(o),
  examples: ['plinth oidc update 3 --disable', 'plinth oidc update 3 --user-claim sub'],
});
