import { describe } from 'vitest';
import { authorizationSuite } from '../../test-support/authorization.js';
import { describeOnStores } from '../../test-support/server.js';
import { cases } from './authorization.cases.js';

describeOnStores('SCIM authorisation (section 5)', (server) => {
  describe('every SCIM operation takes only SCIM tokens of its own account', () => {
    authorizationSuite(server, cases);
  });
});
