import type { OperationCase } from '../../test-support/authorization.js';
import type { TestAccount } from '../../test-support/server.js';

const aUser = async (account: TestAccount) => ({ url: `/api/v1/users/${(await account.addUser('member')).id}` });

/** The users module's operations, for the shared authorisation suite (run by users.test.ts). */
export const cases: OperationCase[] = [
  { operation: 'getAccountUser', method: 'GET', prepare: aUser },
  { operation: 'getUsers', method: 'GET', targetsResource: false, prepare: async () => ({ url: '/api/v1/users' }) },
  { operation: 'getMe', method: 'GET', targetsResource: false, prepare: async () => ({ url: '/api/v1/users/me' }) },
  {
    operation: 'createAccountUser',
    method: 'POST',
    successStatus: 201,
    targetsResource: false,
    prepare: async () => ({ url: '/api/v1/users', body: { email: `new-${Math.random().toString(36).slice(2)}@x.com` } }),
  },
  {
    operation: 'updateAccountUser',
    method: 'PATCH',
    prepare: async (account) => ({ ...(await aUser(account)), body: { displayName: 'Renamed' } }),
  },
  { operation: 'deleteAccountUser', method: 'DELETE', successStatus: 204, prepare: aUser },
];

/** The embed theme's operations (run by embed-theme.test.ts). */
export const embedThemeCases: OperationCase[] = [
  { operation: 'getEmbedTheme', method: 'GET', targetsResource: false, prepare: async () => ({ url: '/api/v1/users/embed-theme' }) },
  {
    operation: 'updateEmbedTheme',
    method: 'PUT',
    targetsResource: false,
    prepare: async () => ({ url: '/api/v1/users/embed-theme', body: { primaryColor: '#1a73e8' } }),
  },
];

/** Every case of the module for the coverage test: the embed theme's run in embed-theme.test.ts. */
export const coverage: OperationCase[] = [...cases, ...embedThemeCases];
