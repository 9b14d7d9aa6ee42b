import type { OperationCase } from '../../test-support/authorization.js';

/** The login module's authenticated operations, for the shared authorisation suite (run by tokens.test.ts). */
export const cases: OperationCase[] = [
  { operation: 'getWhoAmI', method: 'GET', targetsResource: false, prepare: async () => ({ url: '/api/v1/auth/whoami' }) },
  {
    operation: 'setUserPassword',
    method: 'PUT',
    successStatus: 204,
    prepare: async (account) => ({ url: `/api/v1/users/${account.member.id}/password`, body: { password: 'long enough password' } }),
  },
  {
    operation: 'createUserInvite',
    method: 'POST',
    successStatus: 201,
    prepare: async (account) => ({ url: `/api/v1/users/${account.member.id}/invites` }),
  },
];
