import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { NoContent } from '../../http/common-schemas.js';
import { PageQuery } from '../../http/pagination.js';
import { requires } from '../../http/requirement.js';
import {
  CreateOAuthIntegrationBody,
  OAuthIntegration,
  OAuthIntegrationList,
  OAuthIntegrationParams,
  UpdateOAuthIntegrationBody,
} from './schemas.js';

const tags = ['OAuth Integrations'];
const readers = { auth: requires('AccountRead', { resource: 'withinScope' }) };
const admins = { auth: requires('OAuthIntegrationsManage', { resource: 'account' }) };

export const oauthIntegrationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const integrations = app.services.oauthIntegrations;

  app.get('/api/v1/oauth-integrations/:id', {
    config: readers,
    schema: {
      operationId: 'getOAuthIntegration',
      tags,
      summary: 'Get an OAuth integration',
      params: OAuthIntegrationParams,
      response: { 200: Type.Ref(OAuthIntegration) },
    },
    handler: async (request) => integrations.get(request.account.id, request.params.id),
  });

  app.get('/api/v1/oauth-integrations', {
    config: readers,
    schema: {
      operationId: 'listOAuthIntegrations',
      tags,
      summary: 'List OAuth integrations',
      querystring: PageQuery,
      response: { 200: Type.Ref(OAuthIntegrationList) },
    },
    handler: async (request) => integrations.list(request.account.id, request.query),
  });

  app.post('/api/v1/oauth-integrations', {
    config: admins,
    schema: {
      operationId: 'createOAuthIntegration',
      tags,
      summary: 'Create an OAuth integration',
      body: Type.Ref(CreateOAuthIntegrationBody),
      response: { 201: Type.Ref(OAuthIntegration) },
    },
    handler: async (request, reply) => reply.code(201).send(await integrations.create(request.account.id, request.body)),
  });

  app.patch('/api/v1/oauth-integrations/:id', {
    config: admins,
    schema: {
      operationId: 'updateOAuthIntegration',
      tags,
      summary: 'Update an OAuth integration',
      description: 'Only the supplied fields change. A supplied `clientSecret` replaces the stored one.',
      params: OAuthIntegrationParams,
      body: Type.Ref(UpdateOAuthIntegrationBody),
      response: { 200: Type.Ref(OAuthIntegration) },
    },
    handler: async (request) => integrations.update(request.account.id, request.params.id, request.body),
  });

  app.delete('/api/v1/oauth-integrations/:id', {
    config: admins,
    schema: {
      operationId: 'deleteOAuthIntegration',
      tags,
      summary: 'Delete an OAuth integration',
      params: OAuthIntegrationParams,
      response: { 204: NoContent },
    },
    handler: async (request, reply) => {
      await integrations.delete(request.account.id, request.params.id);
      return reply.code(204).send(null);
    },
  });
};
