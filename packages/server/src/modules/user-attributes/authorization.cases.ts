import type { OperationCase } from '../../test-support/authorization.js';
import type { TestAccount, TestServer } from '../../test-support/server.js';

const unique = () => `a_${Math.random().toString(36).slice(2, 10)}`;
const anAttribute = (account: TestAccount, server: TestServer) =>
  server.services.userAttributes.create(account.id, { name: unique(), type: 'string' });
const attributeUrl = async (account: TestAccount, server: TestServer) => ({
  url: `/api/v1/user-attributes/${(await anAttribute(account, server)).id}`,
});
const valuesUrl = async (account: TestAccount) => ({ url: `/api/v1/users/${(await account.addUser('member')).id}/attribute-values` });

/** The user attributes module's operations, for the shared authorisation suite (run by user-attributes.test.ts). */
export const cases: OperationCase[] = [
  {
    operation: 'createUserAttribute',
    method: 'POST',
    successStatus: 201,
    targetsResource: false,
    prepare: async () => ({ url: '/api/v1/user-attributes', body: { name: unique(), type: 'string' } }),
  },
  { operation: 'listUserAttributes', method: 'GET', targetsResource: false, prepare: async () => ({ url: '/api/v1/user-attributes' }) },
  { operation: 'getUserAttribute', method: 'GET', prepare: attributeUrl },
  {
    operation: 'updateUserAttribute',
    method: 'PATCH',
    prepare: async (account, server) => ({ ...(await attributeUrl(account, server)), body: { description: 'd' } }),
  },
  { operation: 'deleteUserAttribute', method: 'DELETE', successStatus: 200, prepare: attributeUrl },
  { operation: 'getUserAttributeValues', method: 'GET', prepare: valuesUrl },
  {
    operation: 'setUserAttributeValues',
    method: 'PUT',
    prepare: async (account, server) => {
      const attribute = await anAttribute(account, server);
      return { ...(await valuesUrl(account)), body: { values: [{ name: attribute.name, value: 'x' }] } };
    },
  },
];
