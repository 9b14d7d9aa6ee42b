import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { userPrincipalOf } from '../../http/auth.js';
import { NoContent } from '../../http/common-schemas.js';
import { requires } from '../../http/requirement.js';
import { CreateUserBody, UpdateUserBody, User, UserList, UserListQuery, UserParams } from './schemas.js';
import { embedThemeRoutes } from './embed-theme-routes.js';
import type { ProfileChanges, UserChanges } from './service.js';
import { toUserPage, toUserView } from './view.js';

const tags = ['Users Admin'];
const readers = { auth: requires('AccountRead', { resource: 'withinScope' }) };
// A new user reaches every deployment.
const admins = { auth: requires('AccountManage', { resource: 'account' }) };
const Conflict = Type.Ref('Error', { description: 'The email is taken, or the change would leave the account without an active admin.' });

/** The API's names for the user's names; the service keeps SCIM's (givenName, familyName). */
function changesOf<T extends { firstName?: string | null; lastName?: string | null }>(body: T) {
  const { firstName, lastName, ...rest } = body;
  const changes: UserChanges & ProfileChanges = { ...rest };
  if (firstName !== undefined) changes.givenName = firstName;
  if (lastName !== undefined) changes.familyName = lastName;
  return changes;
}

export const userRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await embedThemeRoutes(app);
  const { users, groups } = app.services;
  const withGroups = async (accountId: number, id: number) =>
    toUserView(await users.get(accountId, id), await groups.groupsOfUser(accountId, id));

  app.post('/api/v1/users', {
    config: admins,
    schema: {
      operationId: 'createAccountUser',
      tags,
      summary: 'Create an internal user',
      body: Type.Ref(CreateUserBody),
      response: { 201: Type.Ref(User), 409: Conflict },
    },
    handler: async (request, reply) =>
      reply.code(201).send(toUserView(await users.create(request.account.id, { ...changesOf(request.body), email: request.body.email }))),
  });

  app.get('/api/v1/users', {
    config: readers,
    schema: {
      operationId: 'getUsers',
      tags,
      summary: 'List internal users',
      querystring: UserListQuery,
      response: { 200: Type.Ref(UserList) },
    },
    handler: async (request) => toUserPage(await users.list(request.account.id, request.query)),
  });

  app.get('/api/v1/users/me', {
    config: readers,
    schema: {
      operationId: 'getMe',
      tags,
      summary: 'Get the calling user',
      description: 'The user the API key or access token acts for.',
      response: { 200: Type.Ref(User) },
    },
    handler: async (request) => {
      const { userId } = userPrincipalOf(request);
      return withGroups(request.account.id, userId);
    },
  });

  app.get('/api/v1/users/:id', {
    config: readers,
    schema: {
      operationId: 'getAccountUser',
      tags,
      summary: 'Get an internal user',
      params: UserParams,
      response: { 200: Type.Ref(User) },
    },
    handler: async (request) => withGroups(request.account.id, request.params.id),
  });

  app.patch('/api/v1/users/:id', {
    config: {
      auth: requires('AccountManage', {
        // A name only labels the user; what changes access takes the stricter permission, always account-wide.
        resource: 'withinScope',
        // A role or an active flag decides what the user's own credentials reach, and the e-mail
        // who signs in as the user (an OIDC token naming it): account-wide.
        stricterWhen: {
          bodySets: ['role', 'active', 'email'],
          permission: 'UserAccessManage',
          doing: "change a user's role, active state or e-mail, which decide what the user reaches and who signs in as them",
        },
      }),
    },
    schema: {
      operationId: 'updateAccountUser',
      tags,
      summary: 'Update an internal user',
      description:
        "Only the supplied fields change. `active: false` makes the user's API keys and access tokens stop working until reactivated. " +
        'The last active admin of the account can be neither deactivated nor demoted.',
      params: UserParams,
      body: Type.Ref(UpdateUserBody),
      response: { 200: Type.Ref(User), 409: Conflict },
    },
    handler: async (request) => toUserView(await users.update(request.account.id, request.params.id, changesOf(request.body))),
  });

  app.delete('/api/v1/users/:id', {
    config: { auth: requires('UserAccessManage', { resource: 'account', doing: 'delete a user, whose credentials go with them' }) },
    schema: {
      operationId: 'deleteAccountUser',
      tags,
      summary: 'Delete an internal user',
      description: 'Their credentials, group memberships and attribute values go with them. The last active admin cannot be deleted.',
      params: UserParams,
      response: { 204: NoContent, 409: Conflict },
    },
    handler: async (request, reply) => {
      await users.delete(request.account.id, request.params.id);
      return reply.code(204).send(null);
    },
  });
};
