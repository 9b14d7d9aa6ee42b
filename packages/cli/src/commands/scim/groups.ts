import { scimResource } from './resource.js';

export const groups = scimResource({
  group: 'groups',
  resource: 'Groups',
  schema: 'urn:ietf:params:scim:schemas:core:2.0:Group',
  columns: [
    ['ID', 'id'],
    ['Display name', 'displayName'],
    ['Members', (g) => (g.members ?? []).length],
    ['External ID', 'externalId'],
  ],
  createOptions: [
    { flags: '--display-name <name>', description: 'Group name' },
    { flags: '--external-id <id>', description: 'Id in the identity provider' },
    { flags: '--member <scim_user_id>', description: 'Member (repeatable)', repeatable: true },
  ],
  createFields: (o) => ({
    displayName: o.displayName,
    externalId: o.externalId,
    members: o.member ? (o.member as string[]).map((value) => ({ value })) : undefined,
  }),
});
