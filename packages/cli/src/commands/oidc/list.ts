import { listVerb } from '../../core/rest.js';
import { CONFIG_COLUMNS } from './fields.js';

export const list = listVerb({
  summary: 'List the OIDC token configs of the account (getOidcTokenConfigs)',
  path: () => '/api/v1/oidc-token-configs',
  columns: CONFIG_COLUMNS,
});
