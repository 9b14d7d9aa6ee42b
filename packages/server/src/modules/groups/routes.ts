import type { Static } from '@sinclair/typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Deleted, NoContent } from '../../http/common-schemas.js';
import { PageQuery, type Page } from '../../http/pagination.js';
import { requires } from '../../http/requirement.js';
import { UserList } from '../users/schemas.js';
import { toUserPage } from '../users/view.js';
import {
  AddGroupMembersBody,
  CreateUserGroupBody,
  GroupMemberParams,
  GroupParams,
  UpdateUserGroupBody,
  UserGroup,
  UserGroupList,
} from './schemas.js';
import type { GroupRecord } from './service.js';

const tags = ['Users Admin'];
const readers = { auth: requires('AccountRead', { resource: 'withinScope' }) };
// A group's members take its policies on every deployment.
const admins = { auth: requires('AccountManage', { resource: 'account' }) };
const NameTaken = Type.Ref('Error', { description: 'Another group of the account has this name.' });

type GroupView = Static<typeof UserGroup>;
const toView = (g: GroupRecord): GroupView => ({
  id: g.id,
  name: g.name,
  description: g.description,
  userCount: g.userCount,
  createdAt: g.createdAt,
  updatedAt: g.updatedAt,
});
const toPageView = (page: Page<GroupRecord>) => ({ items: page.items.map(toView), pageInfo: page.pageInfo });

export const groupRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const groups = app.services.groups;

  app.post('/api/v1/user-groups', {
    config: admins,
    schema: {
      operationId: 'createUserGroup',
      tags,
      summary: 'Create a group',
      body: Type.Ref(CreateUserGroupBody),
      response: { 201: Type.Ref(UserGroup), 409: NameTaken },
    },
    handler: async (request, reply) => reply.code(201).send(toView(await groups.create(request.account.id, request.body))),
  });

  app.get('/api/v1/user-groups', {
    config: readers,
    schema: {
      operationId: 'listGroups',
      tags,
      summary: 'List groups',
      querystring: PageQuery,
      response: { 200: Type.Ref(UserGroupList) },
    },
    handler: async (request) => toPageView(await groups.list(request.account.id, request.query)),
  });

  app.get('/api/v1/user-groups/:id', {
    config: readers,
    schema: { operationId: 'getUserGroup', tags, summary: 'Get a group', params: GroupParams, response: { 200: Type.Ref(UserGroup) } },
    handler: async (request) => toView(await groups.get(request.account.id, request.params.id)),
  });

  app.patch('/api/v1/user-groups/:id', {
    config: admins,
    schema: {
      operationId: 'updateUserGroup',
      tags,
      summary: 'Update a group',
      params: GroupParams,
      body: Type.Ref(UpdateUserGroupBody),
      response: { 200: Type.Ref(UserGroup), 409: NameTaken },
    },
    handler: async (request) => toView(await groups.update(request.account.id, request.params.id, request.body)),
  });

  app.delete('/api/v1/groups/:id', {
    config: admins,
    schema: {
      operationId: 'deleteGroup',
      tags,
      summary: 'Delete a group',
      description: 'Its memberships go with it.',
      params: GroupParams,
      response: { 200: Type.Ref(Deleted) },
    },
    handler: async (request) => {
      await groups.delete(request.account.id, request.params.id);
      return { id: request.params.id, deleted: true as const };
    },
  });

  app.post('/api/v1/user-groups/:id/members', {
    config: admins,
    schema: {
      operationId: 'addGroupMembers',
      tags,
      summary: 'Add users to a group',
      description:
        'Idempotent. Unknown user ids (including those of other accounts) fail the request with 400 naming them; nobody is added then.',
      params: GroupParams,
      body: Type.Ref(AddGroupMembersBody),
      response: { 204: NoContent },
    },
    handler: async (request, reply) => {
      await groups.addMembers(request.account.id, request.params.id, request.body.userIds);
      return reply.code(204).send(null);
    },
  });

  app.get('/api/v1/user-groups/:id/members', {
    config: readers,
    schema: {
      operationId: 'listGroupMembers',
      tags,
      summary: 'List the members of a group',
      params: GroupParams,
      querystring: PageQuery,
      response: { 200: Type.Ref(UserList) },
    },
    handler: async (request) => toUserPage(await groups.pageMembers(request.account.id, request.params.id, request.query)),
  });

  app.delete('/api/v1/user-groups/:id/members/:userId', {
    config: admins,
    schema: {
      operationId: 'removeGroupMember',
      tags,
      summary: 'Remove a user from a group',
      description: 'Idempotent: removing a user who is not a member succeeds. An unknown group or user is 404.',
      params: GroupMemberParams,
      response: { 204: NoContent },
    },
    handler: async (request, reply) => {
      await groups.removeMember(request.account.id, request.params.id, request.params.userId);
      return reply.code(204).send(null);
    },
  });
};
