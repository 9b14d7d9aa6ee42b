import type { OperationCase } from '../../test-support/authorization.js';
import type { TestAccount } from '../../test-support/server.js';

/** A valid config body; the module's tests use it too. Names and issuers are unique, so each call makes a new one. */
export const configBody = () => {
  const n = `${Date.now()}${Math.random()}`.replace('.', '');
  return { name: `Okta ${n}`, issuer: `https://login-${n}.example.com`, audiences: ['plinth'] };
};

const existing = async (account: TestAccount) => {
  const response = await account.request({ method: 'POST', url: '/api/v1/oidc-token-configs', as: account.admin, body: configBody() });
  return { url: `/api/v1/oidc-token-configs/${(response.body as { id: number }).id}` };
};

/** The OIDC token configs' authenticated operations, for the shared authorisation suite (exchangeOidcToken is public). */
export const cases: OperationCase[] = [
  {
    operation: 'getOidcTokenConfigs',
    method: 'GET',
    targetsResource: false,
    prepare: async () => ({ url: '/api/v1/oidc-token-configs' }),
  },
  {
    operation: 'createOidcTokenConfig',
    method: 'POST',
    successStatus: 201,
    targetsResource: false,
    prepare: async () => ({ url: '/api/v1/oidc-token-configs', body: configBody() }),
  },
  { operation: 'getOidcTokenConfig', method: 'GET', prepare: existing },
  {
    operation: 'updateOidcTokenConfig',
    method: 'PATCH',
    prepare: async (account) => ({ ...(await existing(account)), body: { enabled: false } }),
  },
  { operation: 'deleteOidcTokenConfig', method: 'DELETE', successStatus: 204, prepare: existing },
];
