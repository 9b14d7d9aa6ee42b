import type { OperationCase } from '../../test-support/authorization.js';

/** The credentials module's operations, for the shared authorisation suite (run by credentials.test.ts). */
export const cases: OperationCase[] = [
  {
    operation: 'createApiKey',
    method: 'POST',
    successStatus: 201,
    targetsResource: false,
    prepare: async () => ({ url: '/api/v1/api-keys', body: { name: 'k' } }),
  },
  { operation: 'listApiKeys', method: 'GET', targetsResource: false, prepare: async () => ({ url: '/api/v1/api-keys' }) },
  // A scoped key may not revoke the member's key, which reaches every deployment (the service's check).
  {
    operation: 'revokeApiKey',
    method: 'DELETE',
    successStatus: 204,
    scopedStatus: 403,
    prepare: async (account) => ({ url: `/api/v1/api-keys/${(await account.addUser('member')).apiKeyId}` }),
  },
  {
    operation: 'createScimToken',
    method: 'POST',
    successStatus: 201,
    targetsResource: false,
    prepare: async () => ({ url: '/api/v1/scim-tokens', body: { name: 't' } }),
  },
  { operation: 'listScimTokens', method: 'GET', targetsResource: false, prepare: async () => ({ url: '/api/v1/scim-tokens' }) },
  {
    operation: 'revokeScimToken',
    method: 'DELETE',
    successStatus: 204,
    prepare: async (account, server) => ({
      url: `/api/v1/scim-tokens/${(await server.services.credentials.createScimToken(account.id, account.admin.id, 't')).id}`,
    }),
  },
];
