import type { OperationCase } from '../../test-support/authorization.js';
import type { TestAccount } from '../../test-support/server.js';

/** A valid integration body; the module's tests use it too. */
export const integration = {
  name: 'Snowflake OAuth',
  type: 'snowflake',
  authUrl: 'https://example.snowflakecomputing.com/oauth/authorize',
  tokenUrl: 'https://example.snowflakecomputing.com/oauth/token-request',
  clientId: 'client-123',
  clientSecret: 'very-secret-value',
  redirectUri: 'https://plinth.example.com/oauth/callback',
  config: { account: 'example' },
  scopes: ['session:role:analyst'],
};

const existing = async (account: TestAccount) => {
  const response = await account.request({ method: 'POST', url: '/api/v1/oauth-integrations', as: account.admin, body: integration });
  return { url: `/api/v1/oauth-integrations/${(response.body as { id: number }).id}` };
};

/** The OAuth integrations' operations, for the shared authorisation suite (run by oauth-integrations.test.ts). */
export const cases: OperationCase[] = [
  { operation: 'getOAuthIntegration', method: 'GET', prepare: existing },
  {
    operation: 'listOAuthIntegrations',
    method: 'GET',
    targetsResource: false,
    prepare: async () => ({ url: '/api/v1/oauth-integrations' }),
  },
  {
    operation: 'createOAuthIntegration',
    method: 'POST',
    successStatus: 201,
    targetsResource: false,
    prepare: async () => ({ url: '/api/v1/oauth-integrations', body: integration }),
  },
  {
    operation: 'updateOAuthIntegration',
    method: 'PATCH',
    prepare: async (account) => ({ ...(await existing(account)), body: { name: 'x' } }),
  },
  { operation: 'deleteOAuthIntegration', method: 'DELETE', successStatus: 204, prepare: existing },
];
