import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { NoContent } from '../../http/common-schemas.js';
import { PageQuery } from '../../http/pagination.js';
import { requires } from '../../http/requirement.js';
import { exchangeRoute } from './exchange-route.js';
import {
  CreateOidcTokenConfigBody,
  OidcTokenConfig,
  OidcTokenConfigList,
  OidcTokenConfigParams,
  UpdateOidcTokenConfigBody,
} from './schemas.js';

const tags = ['OIDC Token Configs'];
const readers = { auth: requires('AccountRead', { resource: 'withinScope' }) };
/**
 * A config lets an issuer's tokens sign in as any user of the account, as a password or an invite
 * does: the same permission, which needs a credential for every deployment.
 */
const admins = {
  auth: requires('UserAccessManage', {
    resource: 'account',
    doing: 'configure an OIDC issuer, whose tokens sign users in to the whole account',
  }),
};
const SEMANTICS =
  "An enabled config lets the account's users exchange an ID token of its issuer for a Plinth access token (`exchangeOidcToken`). `issuer` and `jwksUri` must be https (http only for localhost). Names and issuers are unique in the account.";

export const oidcTokenConfigRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const configs = app.services.oidcTokenConfigs;

  app.get('/api/v1/oidc-token-configs', {
    config: readers,
    schema: {
      operationId: 'getOidcTokenConfigs',
      tags,
      summary: 'List OIDC token configs',
      querystring: PageQuery,
      response: { 200: Type.Ref(OidcTokenConfigList) },
    },
    handler: async (request) => configs.list(request.account.id, request.query),
  });

  app.post('/api/v1/oidc-token-configs', {
    config: admins,
    schema: {
      operationId: 'createOidcTokenConfig',
      tags,
      summary: 'Create an OIDC token config',
      description: `${SEMANTICS} Defaults: \`userClaim\` email, \`algorithms\` [RS256], \`enabled\` true, \`jwksUri\` from the issuer's discovery document.`,
      body: Type.Ref(CreateOidcTokenConfigBody),
      response: { 201: Type.Ref(OidcTokenConfig) },
    },
    handler: async (request, reply) => reply.code(201).send(await configs.create(request.account.id, request.body)),
  });

  app.get('/api/v1/oidc-token-configs/:id', {
    config: readers,
    schema: {
      operationId: 'getOidcTokenConfig',
      tags,
      summary: 'Get an OIDC token config',
      params: OidcTokenConfigParams,
      response: { 200: Type.Ref(OidcTokenConfig) },
    },
    handler: async (request) => configs.get(request.account.id, request.params.id),
  });

  app.patch('/api/v1/oidc-token-configs/:id', {
    config: admins,
    schema: {
      operationId: 'updateOidcTokenConfig',
      tags,
      summary: 'Update an OIDC token config',
      description: `Only the supplied fields change. ${SEMANTICS}`,
      params: OidcTokenConfigParams,
      body: Type.Ref(UpdateOidcTokenConfigBody),
      response: { 200: Type.Ref(OidcTokenConfig) },
    },
    handler: async (request) => configs.update(request.account.id, request.params.id, request.body),
  });

  app.delete('/api/v1/oidc-token-configs/:id', {
    config: admins,
    schema: {
      operationId: 'deleteOidcTokenConfig',
      tags,
      summary: 'Delete an OIDC token config',
      description: 'Its issuer can no longer be exchanged; access tokens already issued stay valid until they expire.',
      params: OidcTokenConfigParams,
      response: { 204: NoContent },
    },
    handler: async (request, reply) => {
      await configs.delete(request.account.id, request.params.id);
      return reply.code(204).send(null);
    },
  });

  await app.register(exchangeRoute);
};
