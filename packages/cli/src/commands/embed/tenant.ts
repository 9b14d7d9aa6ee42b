import type { Group } from '../../core/define.js';
import { deleteVerb, enc, getVerb, id, listVerb } from '../../core/rest.js';

const tenantPath = (tenant: string | undefined) => `/api/v1/embed-tenants/${enc(tenant ?? '')}`;

export const groups: Group = {
  name: 'groups',
  summary: "An embed tenant's groups",
  verbs: [
    listVerb({
      summary: "List an embed tenant's groups (getGroups)",
      args: ['<tenant>'],
      path: ([t]) => `${tenantPath(t)}/groups`,
      columns: [
        ['ID', 'id'],
        ['Name', 'name'],
        ['Users', 'userCount'],
        ['Description', 'description'],
      ],
    }),
    deleteVerb({
      summary: 'Delete a group of an embed tenant (deleteEmbedTenantGroup)',
      args: ['<tenant>', '<id>'],
      path: ([t, g]) => `${tenantPath(t)}/groups/${id(g)}`,
      what: ([t, g]) => `group ${g} of ${t}`,
    }),
  ],
};

export const attributes: Group = {
  name: 'attributes',
  summary: "An embed tenant's user attributes",
  verbs: [
    listVerb({
      summary: "List an embed tenant's user attributes (getUserAttributes)",
      args: ['<tenant>'],
      path: ([t]) => `${tenantPath(t)}/user-attributes`,
      columns: [
        ['ID', 'id'],
        ['Name', 'name'],
        ['Type', 'type'],
        ['Display name', 'displayName'],
        ['Default', 'defaultValue'],
      ],
    }),
    deleteVerb({
      summary: 'Delete a user attribute of an embed tenant (deleteEmbedTenantUserAttribute)',
      args: ['<tenant>', '<id>'],
      path: ([t, a]) => `${tenantPath(t)}/user-attributes/${id(a)}`,
      what: ([t, a]) => `attribute ${a} of ${t}`,
    }),
  ],
};

export const users: Group = {
  name: 'users',
  summary: "An embed tenant's external users",
  verbs: [
    listVerb({
      summary: "List an embed tenant's external users (listEmbedTenantUsers)",
      args: ['<tenant>'],
      path: ([t]) => `${tenantPath(t)}/users`,
      columns: [
        ['External ID', 'externalId'],
        ['Email', 'email'],
        ['Name', 'userProfile.displayName'],
        ['Groups', 'groups'],
        ['Tenant groups', 'tenantGroups'],
      ],
    }),
    getVerb({
      summary: 'Show one external user (getEmbedTenantUser)',
      args: ['<tenant>', '<external_id>'],
      path: ([t, e]) => `${tenantPath(t)}/users/${enc(e ?? '')}`,
    }),
  ],
};
