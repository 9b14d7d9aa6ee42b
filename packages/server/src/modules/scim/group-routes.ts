import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { NoContent } from '../../http/common-schemas.js';
import { notModified } from './etag.js';
import { contextOf, NotModified, SCIM_PREFIX, scimErrorRef, scimRoute, sendResource, tags } from './http.js';
import type { PatchOperation } from './patch.js';
import { URN } from './errors.js';
import { requireSchemas } from './request-schemas.js';
import { Projection } from './projection.js';
import {
  ListQuery,
  ProjectionQuery,
  ResourceParams,
  ScimGetHeaders,
  ScimGroup,
  ScimGroupList,
  ScimHeaders,
  ScimPatchOp,
  ScimSearchRequest,
} from './schemas.js';

export const scimGroupRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const groups = app.services.scim.groups;
  const projection = (q: { attributes?: string | undefined; excludedAttributes?: string | undefined }) =>
    Projection.of(groups.resourceType, q.attributes, q.excludedAttributes);

  app.get(`${SCIM_PREFIX}/Groups`, {
    config: scimRoute,
    schema: {
      operationId: 'scimListGroups',
      tags,
      summary: 'List SCIM groups',
      description: 'RFC 7644 §3.4.2. With excludedAttributes=members the members are not read.',
      querystring: ListQuery,
      response: { 200: Type.Ref(ScimGroupList) },
    },
    handler: async (request) => groups.list(contextOf(request), request.query),
  });

  app.post(`${SCIM_PREFIX}/Groups/.search`, {
    config: scimRoute,
    schema: {
      operationId: 'scimSearchGroups',
      tags,
      summary: 'Search SCIM groups',
      description: 'RFC 7644 §3.4.3: a list with its parameters in the body.',
      body: Type.Ref(ScimSearchRequest),
      response: { 200: Type.Ref(ScimGroupList) },
    },
    handler: async (request) => {
      requireSchemas(request.body, URN.searchRequest);
      return groups.list(contextOf(request), request.body);
    },
  });

  app.get(`${SCIM_PREFIX}/Groups/:id`, {
    config: scimRoute,
    schema: {
      operationId: 'getGroup',
      tags,
      summary: 'Get a SCIM group',
      description: '304 when If-None-Match names the current version.',
      params: ResourceParams,
      querystring: ProjectionQuery,
      headers: ScimGetHeaders,
      response: { 200: Type.Ref(ScimGroup), 304: NotModified },
    },
    handler: async (request, reply) => {
      const wanted = projection(request.query);
      const { resource, version } = await groups.get(contextOf(request), request.params.id, wanted.wants('members'));
      if (notModified(request.headers['if-none-match'], version)) {
        return reply
          .code(304)
          .header('etag', (resource.meta as { version: string }).version)
          .send(null);
      }
      return sendResource(reply, wanted.apply(resource));
    },
  });

  app.post(`${SCIM_PREFIX}/Groups`, {
    config: scimRoute,
    schema: {
      operationId: 'createGroup',
      tags,
      summary: 'Create a SCIM group',
      description: 'Creates a tenant-wide group; displayName is unique in the account (409 uniqueness).',
      querystring: ProjectionQuery,
      body: Type.Ref(ScimGroup),
      response: { 201: Type.Ref(ScimGroup), 409: scimErrorRef('displayName already taken') },
    },
    handler: async (request, reply) => {
      const created = await groups.create(contextOf(request), request.body as Record<string, unknown>);
      return sendResource(reply, projection(request.query).apply(created), 201);
    },
  });

  app.put(`${SCIM_PREFIX}/Groups/:id`, {
    config: scimRoute,
    schema: {
      operationId: 'replaceGroup',
      tags,
      summary: 'Replace a SCIM group',
      description: 'RFC 7644 §3.5.1: the members become exactly those sent (none when members is left out).',
      params: ResourceParams,
      querystring: ProjectionQuery,
      headers: ScimHeaders,
      body: Type.Ref(ScimGroup),
      response: {
        200: Type.Ref(ScimGroup),
        409: scimErrorRef('displayName already taken'),
        412: scimErrorRef('If-Match names another version'),
      },
    },
    handler: async (request, reply) => {
      const pre = { ifMatch: request.headers['if-match'] };
      const replaced = await groups.replace(contextOf(request), request.params.id, request.body as Record<string, unknown>, pre);
      return sendResource(reply, projection(request.query).apply(replaced));
    },
  });

  app.patch(`${SCIM_PREFIX}/Groups/:id`, {
    config: scimRoute,
    schema: {
      operationId: 'patchGroup',
      tags,
      summary: 'Patch a SCIM group',
      description: 'RFC 7644 §3.5.2, e.g. add members, remove members[value eq "<id>"], replace members. All operations apply, or none.',
      params: ResourceParams,
      querystring: ProjectionQuery,
      headers: ScimHeaders,
      body: Type.Ref(ScimPatchOp),
      response: {
        200: Type.Ref(ScimGroup),
        409: scimErrorRef('displayName already taken'),
        412: scimErrorRef('If-Match names another version'),
      },
    },
    handler: async (request, reply) => {
      requireSchemas(request.body, URN.patchOp);
      const pre = { ifMatch: request.headers['if-match'] };
      const patched = await groups.patch(contextOf(request), request.params.id, request.body.Operations as PatchOperation[], pre);
      return sendResource(reply, projection(request.query).apply(patched));
    },
  });

  app.delete(`${SCIM_PREFIX}/Groups/:id`, {
    config: scimRoute,
    schema: {
      operationId: 'scimDeleteGroup',
      tags,
      summary: 'Delete a SCIM group',
      description: 'Deletes the group and its memberships; the member users stay.',
      params: ResourceParams,
      headers: ScimHeaders,
      response: { 204: NoContent, 412: scimErrorRef('If-Match names another version') },
    },
    handler: async (request, reply) => {
      await groups.delete(contextOf(request), request.params.id, { ifMatch: request.headers['if-match'] });
      return reply.code(204).send(null);
    },
  });
};
