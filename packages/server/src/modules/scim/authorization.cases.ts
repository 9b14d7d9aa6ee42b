import type { OperationCase } from '../../test-support/authorization.js';
import type { TestAccount } from '../../test-support/server.js';
import { URN } from './errors.js';
import { scimClient, uniqueEmail } from './scim-test-client.js';

const user = async (account: TestAccount) => (await scimClient(account)).createUser();
const group = async (account: TestAccount) => (await scimClient(account)).createGroup();
const patchBody = { schemas: [URN.patchOp], Operations: [{ op: 'replace', value: { displayName: 'x' } }] };

/** Every SCIM operation, for the shared authorisation suite (run by scim-auth.test.ts); SCIM errors say it in `detail`. */
const scimCases: Array<Omit<OperationCase, 'errorMessage'>> = [
  { operation: 'listUsers', method: 'GET', targetsResource: false, prepare: async () => ({ url: '/api/scim/v2/Users' }) },
  {
    operation: 'scimSearchUsers',
    method: 'POST',
    targetsResource: false,
    prepare: async () => ({ url: '/api/scim/v2/Users/.search', body: { schemas: [URN.searchRequest] } }),
  },
  { operation: 'getUser', method: 'GET', prepare: async (a) => ({ url: `/api/scim/v2/Users/${(await user(a)).id}` }) },
  {
    operation: 'createUser',
    method: 'POST',
    successStatus: 201,
    targetsResource: false,
    prepare: async () => ({ url: '/api/scim/v2/Users', body: { schemas: [URN.user], userName: uniqueEmail() } }),
  },
  {
    operation: 'replaceUser',
    method: 'PUT',
    prepare: async (a) => ({ url: `/api/scim/v2/Users/${(await user(a)).id}`, body: { schemas: [URN.user], userName: uniqueEmail() } }),
  },
  { operation: 'patchUser', method: 'PATCH', prepare: async (a) => ({ url: `/api/scim/v2/Users/${(await user(a)).id}`, body: patchBody }) },
  {
    operation: 'deleteUser',
    method: 'DELETE',
    successStatus: 204,
    prepare: async (a) => ({ url: `/api/scim/v2/Users/${(await user(a)).id}` }),
  },
  { operation: 'scimListGroups', method: 'GET', targetsResource: false, prepare: async () => ({ url: '/api/scim/v2/Groups' }) },
  {
    operation: 'scimSearchGroups',
    method: 'POST',
    targetsResource: false,
    prepare: async () => ({ url: '/api/scim/v2/Groups/.search', body: { schemas: [URN.searchRequest] } }),
  },
  { operation: 'getGroup', method: 'GET', prepare: async (a) => ({ url: `/api/scim/v2/Groups/${(await group(a)).id}` }) },
  {
    operation: 'createGroup',
    method: 'POST',
    successStatus: 201,
    targetsResource: false,
    prepare: async () => ({ url: '/api/scim/v2/Groups', body: { schemas: [URN.group], displayName: uniqueEmail('g') } }),
  },
  {
    operation: 'replaceGroup',
    method: 'PUT',
    prepare: async (a) => ({
      url: `/api/scim/v2/Groups/${(await group(a)).id}`,
      body: { schemas: [URN.group], displayName: uniqueEmail('g') },
    }),
  },
  {
    operation: 'patchGroup',
    method: 'PATCH',
    prepare: async (a) => ({ url: `/api/scim/v2/Groups/${(await group(a)).id}`, body: patchBody }),
  },
  {
    operation: 'scimDeleteGroup',
    method: 'DELETE',
    successStatus: 204,
    prepare: async (a) => ({ url: `/api/scim/v2/Groups/${(await group(a)).id}` }),
  },
  {
    operation: 'scimSearchAll',
    method: 'POST',
    targetsResource: false,
    prepare: async () => ({ url: '/api/scim/v2/.search', body: { schemas: [URN.searchRequest] } }),
  },
  {
    operation: 'scimBulk',
    method: 'POST',
    targetsResource: false,
    prepare: async () => ({ url: '/api/scim/v2/Bulk', body: { schemas: [URN.bulkRequest], Operations: [] } }),
  },
  {
    operation: 'scimGetServiceProviderConfig',
    method: 'GET',
    targetsResource: false,
    prepare: async () => ({ url: '/api/scim/v2/ServiceProviderConfig' }),
  },
  {
    operation: 'scimListResourceTypes',
    method: 'GET',
    targetsResource: false,
    prepare: async () => ({ url: '/api/scim/v2/ResourceTypes' }),
  },
  {
    operation: 'scimGetResourceType',
    method: 'GET',
    targetsResource: false,
    prepare: async () => ({ url: '/api/scim/v2/ResourceTypes/User' }),
  },
  { operation: 'scimListSchemas', method: 'GET', targetsResource: false, prepare: async () => ({ url: '/api/scim/v2/Schemas' }) },
  {
    operation: 'scimGetSchema',
    method: 'GET',
    targetsResource: false,
    prepare: async () => ({ url: `/api/scim/v2/Schemas/${URN.group}` }),
  },
];

export const cases: OperationCase[] = scimCases.map((c) => ({ ...c, errorMessage: (b) => b?.detail }));
