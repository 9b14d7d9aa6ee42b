import { deleteVerb, id } from '../../core/rest.js';

export const remove = deleteVerb({
  summary: 'Delete an OIDC token config; access tokens already issued stay valid until they expire (deleteOidcTokenConfig)',
  path: ([i]) => `/api/v1/oidc-token-configs/${id(i)}`,
  what: ([i]) => `OIDC token config ${i}`,
});
