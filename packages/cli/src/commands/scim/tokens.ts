import type { Group } from '../../core/define.js';
import { bodyVerb, deleteVerb, id, listVerb } from '../../core/rest.js';

/** SCIM tokens are managed with the platform credential (an admin's key or login), not with a SCIM token. */
export const tokens: Group = {
  name: 'tokens',
  summary: 'SCIM tokens for identity providers',
  verbs: [
    listVerb({
      summary: 'List SCIM tokens (listScimTokens)',
      path: () => '/api/v1/scim-tokens',
      columns: [['ID', 'id'], ['Name', 'name'], ['Prefix', 'prefix'], ['Last used', 'lastUsedAt'], ['Revoked', 'revokedAt']],
    }),
    bodyVerb({
      name: 'create', summary: 'Create a SCIM token; printed once (createScimToken)', method: 'POST', path: () => '/api/v1/scim-tokens',
      options: [{ flags: '--name <name>', description: 'Name of the token' }],
      fields: (o) => ({ name: o.name }),
      done: () => 'Store the token now: it is not shown again.',
      show: [['ID', 'id'], ['Name', 'name'], ['Token', 'token']],
    }),
    deleteVerb({ name: 'revoke', summary: 'Revoke a SCIM token (revokeScimToken)', path: ([t]) => `/api/v1/scim-tokens/${id(t)}`, what: ([t]) => `SCIM token ${t}` }),
  ],
};
