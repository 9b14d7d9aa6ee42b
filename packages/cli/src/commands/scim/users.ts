import { bool } from '../../core/body.js';
import { scimResource } from './resource.js';

export const users = scimResource({
  group: 'users',
  resource: 'Users',
  schema: 'urn:ietf:params:scim:schemas:core:2.0:User',
  columns: [
    ['ID', 'id'],
    ['User name', 'userName'],
    ['Name', (u) => [u.name?.givenName, u.name?.familyName].filter(Boolean).join(' ')],
    ['Active', 'active'],
    ['External ID', 'externalId'],
  ],
  createOptions: [
    { flags: '--user-name <name>', description: 'userName, usually the e-mail' },
    { flags: '--email <email>', description: 'Primary e-mail (default: the user name)' },
    { flags: '--given-name <name>', description: 'Given name' },
    { flags: '--family-name <name>', description: 'Family name' },
    { flags: '--external-id <id>', description: 'Id in the identity provider' },
    { flags: '--active <bool>', description: 'true or false' },
  ],
  createFields: (o) => ({
    userName: o.userName,
    externalId: o.externalId,
    active: bool(o.active, '--active'),
    name: o.givenName || o.familyName ? { givenName: o.givenName, familyName: o.familyName } : undefined,
    emails: o.email || o.userName ? [{ value: o.email ?? o.userName, primary: true }] : undefined,
  }),
});
