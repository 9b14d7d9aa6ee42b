import { getVerb, id } from '../../core/rest.js';

export const get = getVerb({
  summary: 'Show one OIDC token config (getOidcTokenConfig)',
  path: ([i]) => `/api/v1/oidc-token-configs/${id(i)}`,
});
