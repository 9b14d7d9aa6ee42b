import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { NoContent } from '../../http/common-schemas.js';
import { notModified } from './etag.js';
import { contextOf, NotModified, SCIM_PREFIX, scimErrorRef, scimRoute, sendResource, tags } from './http.js';
import {
  ListQuery,
  ProjectionQuery,
  ResourceParams,
  ScimGetHeaders,
  ScimHeaders,
  ScimPatchOp,
  ScimSearchRequest,
  ScimUser,
  ScimUserList,
} from './schemas.js';
import type { PatchOperation } from './patch.js';
import { URN } from './errors.js';
import { requireSchemas } from './request-schemas.js';

export const scimUserRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const users = app.services.scim.users;

  app.get(`${SCIM_PREFIX}/Users`, {
    config: scimRoute,
    schema: {
      operationId: 'listUsers',
      tags,
      summary: 'List SCIM users',
      description: 'RFC 7644 §3.4.2: filter, sort, startIndex/count paging and attribute selection.',
      querystring: ListQuery,
      response: { 200: Type.Ref(ScimUserList) },
    },
    handler: async (request, reply) => reply.send(await users.list(contextOf(request), request.query)),
  });

  app.post(`${SCIM_PREFIX}/Users/.search`, {
    config: scimRoute,
    schema: {
      operationId: 'scimSearchUsers',
      tags,
      summary: 'Search SCIM users',
      description: 'RFC 7644 §3.4.3: a list with its parameters in the body.',
      body: Type.Ref(ScimSearchRequest),
      response: { 200: Type.Ref(ScimUserList) },
    },
    handler: async (request, reply) => {
      requireSchemas(request.body, URN.searchRequest);
      return reply.send(await users.list(contextOf(request), request.body));
    },
  });

  app.get(`${SCIM_PREFIX}/Users/:id`, {
    config: scimRoute,
    schema: {
      operationId: 'getUser',
      tags,
      summary: 'Get a SCIM user',
      description: 'Section 4.2. 304 when If-None-Match names the current version.',
      params: ResourceParams,
      querystring: ProjectionQuery,
      headers: ScimGetHeaders,
      response: { 200: Type.Ref(ScimUser), 304: NotModified },
    },
    handler: async (request, reply) => {
      const projection = users.projection(request.query);
      const { resource, version } = await users.get(contextOf(request), request.params.id, projection.requests('groups'));
      if (notModified(request.headers['if-none-match'], version)) {
        return reply
          .code(304)
          .header('etag', resource.meta && (resource.meta as { version: string }).version)
          .send(null);
      }
      return sendResource(reply, projection.apply(resource));
    },
  });

  app.post(`${SCIM_PREFIX}/Users`, {
    config: scimRoute,
    schema: {
      operationId: 'createUser',
      tags,
      summary: 'Create a SCIM user',
      description:
        'Creates an internal user with the member role. userName is any non-empty string, unique case-insensitively (409 uniqueness); ' +
        'every attribute of the core User and the enterprise extension is stored as sent, and one of no supported schema is 400.',
      querystring: ProjectionQuery,
      body: Type.Ref(ScimUser),
      response: { 201: Type.Ref(ScimUser), 409: scimErrorRef('userName already taken') },
    },
    handler: async (request, reply) => {
      const created = await users.create(contextOf(request), request.body as Record<string, unknown>);
      return sendResource(reply, users.projection(request.query).apply(created), 201);
    },
  });

  app.put(`${SCIM_PREFIX}/Users/:id`, {
    config: scimRoute,
    schema: {
      operationId: 'replaceUser',
      tags,
      summary: 'Replace a SCIM user',
      description: 'RFC 7644 §3.5.1. Attributes left out are cleared, except active. Attributes of other schemas are ignored.',
      params: ResourceParams,
      querystring: ProjectionQuery,
      headers: ScimHeaders,
      body: Type.Ref(ScimUser),
      response: {
        200: Type.Ref(ScimUser),
        409: scimErrorRef('userName already taken'),
        412: scimErrorRef('If-Match names another version'),
      },
    },
    handler: async (request, reply) => {
      const ctx = contextOf(request);
      const pre = { ifMatch: request.headers['if-match'] };
      const replaced = await users.replace(ctx, request.params.id, request.body as Record<string, unknown>, pre);
      return sendResource(reply, users.projection(request.query).apply(replaced));
    },
  });

  app.patch(`${SCIM_PREFIX}/Users/:id`, {
    config: scimRoute,
    schema: {
      operationId: 'patchUser',
      tags,
      summary: 'Patch a SCIM user',
      description: 'RFC 7644 §3.5.2: add, replace and remove, with or without a path. All operations apply, or none.',
      params: ResourceParams,
      querystring: ProjectionQuery,
      headers: ScimHeaders,
      body: Type.Ref(ScimPatchOp),
      response: {
        200: Type.Ref(ScimUser),
        409: scimErrorRef('userName already taken'),
        412: scimErrorRef('If-Match names another version'),
      },
    },
    handler: async (request, reply) => {
      requireSchemas(request.body, URN.patchOp);
      const pre = { ifMatch: request.headers['if-match'] };
      const patched = await users.patch(contextOf(request), request.params.id, request.body.Operations as PatchOperation[], pre);
      return sendResource(reply, users.projection(request.query).apply(patched));
    },
  });

  app.delete(`${SCIM_PREFIX}/Users/:id`, {
    config: scimRoute,
    schema: {
      operationId: 'deleteUser',
      tags,
      summary: 'Delete a SCIM user',
      description:
        'The user is gone (a later GET is 404) but not erased: deactivated, out of their groups, their API keys and tokens revoked, ' +
        "with who deleted them, when and why kept in the store. The account's last active admin cannot be deleted (400 mutability).",
      params: ResourceParams,
      headers: ScimHeaders,
      response: {
        204: NoContent,
        400: scimErrorRef("The account's last active admin (mutability)"),
        412: scimErrorRef('If-Match names another version'),
      },
    },
    handler: async (request, reply) => {
      await users.delete(contextOf(request), request.params.id, { ifMatch: request.headers['if-match'] });
      return reply.code(204).send(null);
    },
  });
};
