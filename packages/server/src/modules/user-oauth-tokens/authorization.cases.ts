import type { OperationCase } from '../../test-support/authorization.js';
import type { TestAccount, TestServer } from '../../test-support/server.js';
import { CLIENT_ID, CLIENT_SECRET, sharedStandInProvider } from './test-fixtures.js';

/**
 * An integration of the account pointing at the local stand-in provider. Made through the service:
 * the integration's schema (`format: url`) refuses loopback addresses such as the stand-in's.
 */
export async function standInIntegration(server: TestServer, account: { id: number }, config: Record<string, unknown> = {}) {
  const provider = await sharedStandInProvider();
  return server.services.oauthIntegrations.create(account.id, {
    name: `Provider ${Math.random()}`,
    type: 'generic',
    authUrl: `${provider.url}/authorize`,
    tokenUrl: provider.tokenUrl,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    redirectUri: 'https://plinth.example.com/oauth/callback',
    config: { revocationUrl: provider.revocationUrl, ...config },
    scopes: ['read'],
  });
}

/** A token held by the account's member, who holds OAuthIntegrationsIssueTokens by role (the suite calls as them). */
const held = async (account: TestAccount, server: TestServer) => {
  const provider = await sharedStandInProvider();
  const integration = await standInIntegration(server, account);
  const token = await server.services.userOAuthTokens.create(
    { accountId: account.id, userId: account.member.id },
    { integrationId: integration.id, code: provider.issueCode() },
  );
  return { url: `/api/v1/user-oauth-tokens/${token.id}` };
};

/** The user OAuth tokens' operations, for the shared authorisation suite (run by user-oauth-tokens.test.ts). */
export const cases: OperationCase[] = [
  {
    operation: 'getUserOAuthTokens',
    method: 'GET',
    targetsResource: false,
    prepare: async () => ({ url: '/api/v1/user-oauth-tokens' }),
  },
  {
    operation: 'createUserOAuthToken',
    method: 'POST',
    successStatus: 201,
    prepare: async (account, server) => {
      const provider = await sharedStandInProvider();
      const integration = await standInIntegration(server, account);
      return { url: '/api/v1/user-oauth-tokens', body: { integrationId: integration.id, code: provider.issueCode() } };
    },
  },
  {
    operation: 'refreshUserOAuthToken',
    method: 'POST',
    prepare: async (account, server) => ({ url: `${(await held(account, server)).url}/refresh` }),
  },
  { operation: 'deleteUserOAuthToken', method: 'DELETE', successStatus: 204, prepare: held },
];
