import { bodyVerb, enc } from '../../core/rest.js';

export const provision = bodyVerb({
  name: 'provision',
  summary: 'Create or update one external user of an embed tenant (provisionEmbedUser)',
  method: 'POST',
  args: ['<tenant>'],
  path: ([t]) => `/api/v1/embed-tenants/${enc(t ?? '')}/user`,
  options: [
    { flags: '--external-id <id>', description: 'Stable id of the user' },
    { flags: '--email <email>', description: 'E-mail' },
    { flags: '--display-name <name>', description: 'userProfile.displayName' },
    { flags: '--picture <url>', description: 'userProfile.picture' },
    { flags: '--group <name>', description: 'Account group (repeatable); replaces memberships', repeatable: true },
    { flags: '--tenant-group <name>', description: 'Embed-tenant group (repeatable)', repeatable: true },
  ],
  fields: (o) => ({
    externalId: o.externalId,
    email: o.email,
    userProfile: o.displayName || o.picture ? { displayName: o.displayName, picture: o.picture } : undefined,
    groups: o.group,
    tenantGroups: o.tenantGroup,
  }),
  examples: ['plinth embed provision acme-corp --external-id ada@example.com --group analysts'],
});
