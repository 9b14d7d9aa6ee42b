import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ScimBulkRequest, ScimBulkResponse } from './bulk.js';
import { ScimResourceType, ScimResourceTypeList, ScimSchema, ScimSchemaList, ScimServiceProviderConfig } from './discovery.js';
import { contextOf, SCIM_PREFIX, scimErrorRef, scimRoute, tags } from './http.js';
import { ScimResourceList, ScimSearchRequest } from './schemas.js';
import { URN } from './errors.js';
import { requireSchemas } from './request-schemas.js';

const IdParams = Type.Object({ id: Type.String() });

/** The root-level endpoints: discovery (RFC 7644 §4), Bulk (§3.7) and search across types (§3.4.3). */
export const scimDiscoveryRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const scim = app.services.scim;

  app.get(`${SCIM_PREFIX}/ServiceProviderConfig`, {
    config: scimRoute,
    schema: {
      operationId: 'scimGetServiceProviderConfig',
      tags,
      summary: 'Get the SCIM service provider configuration',
      response: { 200: Type.Ref(ScimServiceProviderConfig) },
    },
    handler: async (request) => scim.serviceProviderConfig(contextOf(request), app.initialConfig.bodyLimit ?? 1024 * 1024),
  });

  app.get(`${SCIM_PREFIX}/ResourceTypes`, {
    config: scimRoute,
    schema: {
      operationId: 'scimListResourceTypes',
      tags,
      summary: 'List SCIM resource types',
      response: { 200: Type.Ref(ScimResourceTypeList) },
    },
    handler: async (request) => scim.resourceTypes(contextOf(request)),
  });

  app.get(`${SCIM_PREFIX}/ResourceTypes/:id`, {
    config: scimRoute,
    schema: {
      operationId: 'scimGetResourceType',
      tags,
      summary: 'Get a SCIM resource type',
      params: IdParams,
      response: { 200: Type.Ref(ScimResourceType) },
    },
    handler: async (request) => scim.resourceType(contextOf(request), request.params.id),
  });

  app.get(`${SCIM_PREFIX}/Schemas`, {
    config: scimRoute,
    schema: {
      operationId: 'scimListSchemas',
      tags,
      summary: 'List SCIM schemas',
      response: { 200: Type.Ref(ScimSchemaList) },
    },
    handler: async (request) => scim.schemas(contextOf(request)),
  });

  app.get(`${SCIM_PREFIX}/Schemas/:id`, {
    config: scimRoute,
    schema: {
      operationId: 'scimGetSchema',
      tags,
      summary: 'Get a SCIM schema',
      params: IdParams,
      response: { 200: Type.Ref(ScimSchema) },
    },
    handler: async (request) => scim.schema(contextOf(request), request.params.id),
  });

  app.post(`${SCIM_PREFIX}/Bulk`, {
    config: { ...scimRoute, bulkEntries: 'Operations' },
    schema: {
      operationId: 'scimBulk',
      tags,
      summary: 'Run SCIM operations in bulk',
      description: 'RFC 7644 §3.7, with bulkId references and failOnErrors. At most bulkActionLimit operations (413 beyond).',
      body: Type.Ref(ScimBulkRequest),
      response: { 200: Type.Ref(ScimBulkResponse), 413: scimErrorRef('More operations than bulkActionLimit, or a body over 1 MiB') },
    },
    handler: async (request) => {
      requireSchemas(request.body, URN.bulkRequest);
      return scim.bulk(contextOf(request), request.body as Parameters<typeof scim.bulk>[1]);
    },
  });

  app.post(`${SCIM_PREFIX}/.search`, {
    config: scimRoute,
    schema: {
      operationId: 'scimSearchAll',
      tags,
      summary: 'Search SCIM users and groups together',
      description:
        'RFC 7644 §3.4.3 at the root: users, then groups, paged together. An attribute a type lacks compares false there, ' +
        'so meta.resourceType eq "Group" narrows to groups.',
      body: Type.Ref(ScimSearchRequest),
      response: { 200: Type.Ref(ScimResourceList) },
    },
    handler: async (request) => {
      requireSchemas(request.body, URN.searchRequest);
      return scim.search(contextOf(request), request.body);
    },
  });
};
