import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Deleted } from '../../http/common-schemas.js';
import { PageQuery } from '../../http/pagination.js';
import { API_KEY_ONLY } from '../../http/principal.js';
import { requires } from '../../http/requirement.js';
import {
  EmbedTenantGroupList,
  EmbedTenantUser,
  EmbedTenantUserAttributeList,
  EmbedTenantUserList,
  ProvisionEmbedUserInput,
  ProvisionEmbedUsersInput,
  ProvisionEmbedUsersResult,
  TenantItemParams,
  TenantParams,
  TenantUserParams,
} from './schemas.js';

const tags = ['Embed Tenants'];
// Section 5 rule 2 and the authentication table: the account's API key, with admin access.
// Embed tenants serve every deployment's embedding.
const admins = { auth: requires('AccountManage', { kinds: API_KEY_ONLY, resource: 'account' }) };
const base = '/api/v1/embed-tenants/:embedTenantName';

export const embedTenantRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tenants = app.services.embedTenants;
  const provisioning = app.services.embedProvisioning;

  app.get(`${base}/groups`, {
    config: admins,
    schema: {
      operationId: 'getGroups',
      tags,
      summary: "List an embed tenant's groups",
      params: TenantParams,
      querystring: PageQuery,
      response: { 200: Type.Ref(EmbedTenantGroupList) },
    },
    handler: async (request) => tenants.listGroups(request.account, request.params.embedTenantName, request.query),
  });

  app.delete(`${base}/groups/:id`, {
    config: admins,
    schema: {
      operationId: 'deleteEmbedTenantGroup',
      tags,
      summary: "Delete one of an embed tenant's groups",
      description: 'Memberships of the group are removed with it.',
      params: TenantItemParams,
      response: { 200: Type.Ref(Deleted) },
    },
    handler: async (request) => {
      await tenants.deleteGroup(request.account, request.params.embedTenantName, request.params.id);
      return { id: request.params.id, deleted: true as const };
    },
  });

  app.get(`${base}/user-attributes`, {
    config: admins,
    schema: {
      operationId: 'getUserAttributes',
      tags,
      summary: "List an embed tenant's user attributes",
      params: TenantParams,
      querystring: PageQuery,
      response: { 200: Type.Ref(EmbedTenantUserAttributeList) },
    },
    handler: async (request) => tenants.listAttributes(request.account, request.params.embedTenantName, request.query),
  });

  app.delete(`${base}/user-attributes/:id`, {
    config: admins,
    schema: {
      operationId: 'deleteEmbedTenantUserAttribute',
      tags,
      summary: "Delete one of an embed tenant's user attributes",
      description: 'Values of the attribute are removed with it; the name can then be defined again with another type.',
      params: TenantItemParams,
      response: { 200: Type.Ref(Deleted) },
    },
    handler: async (request) => {
      await tenants.deleteAttribute(request.account, request.params.embedTenantName, request.params.id);
      return { id: request.params.id, deleted: true as const };
    },
  });

  app.get(`${base}/users`, {
    config: admins,
    schema: {
      operationId: 'listEmbedTenantUsers',
      tags,
      summary: "List an embed tenant's external users",
      params: TenantParams,
      querystring: PageQuery,
      response: { 200: Type.Ref(EmbedTenantUserList) },
    },
    handler: async (request) => tenants.listUsers(request.account, request.params.embedTenantName, request.query),
  });

  app.get(`${base}/users/:externalId`, {
    config: admins,
    schema: {
      operationId: 'getEmbedTenantUser',
      tags,
      summary: 'Get an external user of an embed tenant',
      params: TenantUserParams,
      response: { 200: Type.Ref(EmbedTenantUser) },
    },
    handler: async (request) => tenants.getUser(request.account, request.params.embedTenantName, request.params.externalId),
  });

  app.post(`${base}/user`, {
    config: admins,
    schema: {
      operationId: 'provisionEmbedUser',
      tags,
      summary: 'Provision one external user',
      description:
        'Creates the external user, or updates it when the externalId exists. `groups` names tenant-wide groups and ' +
        "`tenantGroups` the embed tenant's own: a list replaces, `[]` clears, omitted keeps. The embed tenant is created on demand.",
      params: TenantParams,
      body: Type.Ref(ProvisionEmbedUserInput),
      response: { 200: Type.Ref(EmbedTenantUser), 422: Type.Ref('Error') },
    },
    handler: async (request) => provisioning.provisionUser(request.account, request.params.embedTenantName, request.body),
  });

  app.post(`${base}/users`, {
    config: { ...admins, bulkEntries: 'users', entriesTypedByRoute: true },
    schema: {
      operationId: 'provisionEmbedUsers',
      tags,
      summary: 'Provision external users in bulk',
      description:
        'Always 200 once the body is valid: each entry is reported, in request order, in `succeeded` or `failed`. ' +
        'Entries apply in order, as if sent one by one. More entries than the bulkActionLimit tenant setting is a 400.',
      params: TenantParams,
      body: Type.Ref(ProvisionEmbedUsersInput),
      response: { 200: Type.Ref(ProvisionEmbedUsersResult) },
    },
    handler: async (request) => provisioning.provisionUsers(request.account, request.params.embedTenantName, request.body.users),
  });
};
