import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Deleted } from '../../http/common-schemas.js';
import { PageQuery } from '../../http/pagination.js';
import { requires } from '../../http/requirement.js';
import { UserParams } from '../users/schemas.js';
import {
  CreateUserAttributeBody,
  SetUserAttributeValuesBody,
  UpdateUserAttributeBody,
  UserAttribute,
  UserAttributeList,
  UserAttributeParams,
  UserAttributeValues,
} from './schemas.js';

const readers = { auth: requires('AccountRead', { resource: 'withinScope' }) };
// Attribute values feed the access policies of every deployment's data model.
const admins = { auth: requires('AccountManage', { resource: 'account' }) };

export const userAttributeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const attributes = app.services.userAttributes;
  const tags = ['User Attributes'];

  app.post('/api/v1/user-attributes', {
    config: admins,
    schema: {
      operationId: 'createUserAttribute',
      tags,
      summary: 'Create a user attribute',
      body: Type.Ref(CreateUserAttributeBody),
      response: { 201: Type.Ref(UserAttribute), 409: Type.Ref('Error', { description: 'Another attribute has this name.' }) },
    },
    handler: async (request, reply) => reply.code(201).send(await attributes.create(request.account.id, request.body)),
  });

  app.get('/api/v1/user-attributes', {
    config: readers,
    schema: {
      operationId: 'listUserAttributes',
      tags,
      summary: 'List user attributes',
      querystring: PageQuery,
      response: { 200: Type.Ref(UserAttributeList) },
    },
    handler: async (request) => attributes.list(request.account.id, request.query),
  });

  app.get('/api/v1/user-attributes/:id', {
    config: readers,
    schema: {
      operationId: 'getUserAttribute',
      tags,
      summary: 'Get a user attribute',
      params: UserAttributeParams,
      response: { 200: Type.Ref(UserAttribute) },
    },
    handler: async (request) => attributes.get(request.account.id, request.params.id),
  });

  app.patch('/api/v1/user-attributes/:id', {
    config: admins,
    schema: {
      operationId: 'updateUserAttribute',
      tags,
      summary: 'Update a user attribute',
      description: 'Only the supplied fields change. The type is fixed: a different `type` fails with `cannot change type`.',
      params: UserAttributeParams,
      body: Type.Ref(UpdateUserAttributeBody),
      response: { 200: Type.Ref(UserAttribute) },
    },
    handler: async (request) => attributes.update(request.account.id, request.params.id, request.body),
  });

  app.delete('/api/v1/user-attributes/:id', {
    config: admins,
    schema: {
      operationId: 'deleteUserAttribute',
      tags,
      summary: 'Delete a user attribute',
      description: "Every user's value of it goes with it.",
      params: UserAttributeParams,
      response: { 200: Type.Ref(Deleted) },
    },
    handler: async (request) => {
      await attributes.delete(request.account.id, request.params.id);
      return { id: request.params.id, deleted: true as const };
    },
  });

  const valueTags = ['User Attribute Values'];

  app.get('/api/v1/users/:id/attribute-values', {
    config: readers,
    schema: {
      operationId: 'getUserAttributeValues',
      tags: valueTags,
      summary: "Get a user's attribute values",
      description: 'The values set for the user; attributes without one are absent (their defaults are not filled in).',
      params: UserParams,
      response: { 200: Type.Ref(UserAttributeValues) },
    },
    handler: async (request) => attributes.getValues(request.account.id, request.params.id),
  });

  app.put('/api/v1/users/:id/attribute-values', {
    config: admins,
    schema: {
      operationId: 'setUserAttributeValues',
      tags: valueTags,
      summary: "Set a user's attribute values",
      description:
        "Each value must match its attribute's type; `null` clears it; attributes not listed keep their values. " +
        'Unknown names fail with `User attributes not found`. All or nothing. Returns every value the user then has.',
      params: UserParams,
      body: Type.Ref(SetUserAttributeValuesBody),
      response: { 200: Type.Ref(UserAttributeValues) },
    },
    handler: async (request) => attributes.setValues(request.account.id, request.params.id, request.body.values),
  });
};
